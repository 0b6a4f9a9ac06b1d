/* What differs between Linux and Windows: the lock, the clock, the file, the process, the call stack and the
 * module an address belongs to. Everything else in the layer is plain C11. */
#ifndef HEAPSCOPE_PLATFORM_H
#define HEAPSCOPE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef _WIN32
#define HS_EXPORT __declspec(dllexport)
#else
#define HS_EXPORT __attribute__((visibility("default")))
#endif

/* One process-wide lock. */
void hs_lock(void);
void hs_unlock(void);

/* Milliseconds from a fixed point, monotonic. */
double hs_now_ms(void);
/* The current UTC time as 2026-11-29T12:00:00Z into out (at least 21 bytes). */
void hs_utc_iso(char *out, size_t size);
unsigned long hs_pid(void);
/* The running program's file name without its folder. */
void hs_program_name(char *out, size_t size);
/* An environment variable, or NULL. */
const char *hs_getenv(const char *name);
/* Opens for writing, truncating, in binary mode. */
FILE *hs_open_write(const char *path);

/* Keeps the module holding addr loaded until the process ends: the loader unloads a layer when the program destroys
 * its instance, and a capture must go on, in the same file, when it creates another. */
void hs_pin_module(const void *addr);

/* Up to max return addresses of the calling thread, innermost first. */
int hs_backtrace(void **frames, int max);
/* The module (shared object, executable, DLL) that holds addr, and addr's offset from the module's load address.
 * Returns 0 when unknown. */
int hs_module_of(const void *addr, char *module, size_t size, uint64_t *offset, const void **base);

#endif
