#define _GNU_SOURCE
#include "platform.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _WIN32
#include <windows.h>
#include <process.h>

static SRWLOCK lock = SRWLOCK_INIT;
void hs_lock(void) { AcquireSRWLockExclusive(&lock); }
void hs_unlock(void) { ReleaseSRWLockExclusive(&lock); }

double hs_now_ms(void) {
  static LARGE_INTEGER frequency;
  LARGE_INTEGER now;
  if (frequency.QuadPart == 0) QueryPerformanceFrequency(&frequency);
  QueryPerformanceCounter(&now);
  return (double)now.QuadPart * 1000.0 / (double)frequency.QuadPart;
}

void hs_utc_iso(char *out, size_t size) {
  SYSTEMTIME t;
  GetSystemTime(&t);
  snprintf(out, size, "%04u-%02u-%02uT%02u:%02u:%02uZ", t.wYear, t.wMonth, t.wDay, t.wHour, t.wMinute, t.wSecond);
}

unsigned long hs_pid(void) { return (unsigned long)GetCurrentProcessId(); }

void hs_program_name(char *out, size_t size) {
  char path[MAX_PATH];
  DWORD n = GetModuleFileNameA(NULL, path, MAX_PATH);
  const char *name = path;
  if (n == 0 || n >= MAX_PATH) path[0] = 0;
  for (const char *p = path; *p; p++)
    if (*p == '\\' || *p == '/') name = p + 1;
  snprintf(out, size, "%s", name);
}

const char *hs_getenv(const char *name) {
  /* getenv is not thread-safe on Windows' CRT for concurrent setenv, but the layer reads only at start */
  return getenv(name);
}

FILE *hs_open_write(const char *path) {
  wchar_t wide[MAX_PATH * 4];
  if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, (int)(sizeof wide / sizeof wide[0])) == 0) return NULL;
  return _wfopen(wide, L"wb");
}

void hs_pin_module(const void *addr) {
  HMODULE handle;
  GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN, (LPCSTR)addr, &handle);
}

int hs_backtrace(void **frames, int max) { return (int)CaptureStackBackTrace(0, (DWORD)max, frames, NULL); }

int hs_module_of(const void *addr, char *module, size_t size, uint64_t *offset, const void **base) {
  HMODULE handle = NULL;
  if (!GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                          (LPCSTR)addr, &handle))
    return 0;
  if (GetModuleFileNameA(handle, module, (DWORD)size) == 0) return 0;
  *offset = (uint64_t)((const char *)addr - (const char *)handle);
  *base = handle;
  return 1;
}

#else
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
void hs_lock(void) { pthread_mutex_lock(&lock); }
void hs_unlock(void) { pthread_mutex_unlock(&lock); }

double hs_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

void hs_utc_iso(char *out, size_t size) {
  time_t now = time(NULL);
  struct tm t;
  gmtime_r(&now, &t);
  strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &t);
}

unsigned long hs_pid(void) { return (unsigned long)getpid(); }

void hs_program_name(char *out, size_t size) {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  path[n > 0 ? n : 0] = 0;
  const char *slash = strrchr(path, '/');
  snprintf(out, size, "%s", slash ? slash + 1 : path);
}

const char *hs_getenv(const char *name) { return getenv(name); }

FILE *hs_open_write(const char *path) { return fopen(path, "wb"); }

void hs_pin_module(const void *addr) {
  Dl_info info;
  if (dladdr(addr, &info) && info.dli_fname) dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

int hs_backtrace(void **frames, int max) { return backtrace(frames, max); }

int hs_module_of(const void *addr, char *module, size_t size, uint64_t *offset, const void **base) {
  Dl_info info;
  if (!dladdr(addr, &info) || !info.dli_fname) return 0;
  if (info.dli_fname[0] == '/') {
    snprintf(module, size, "%s", info.dli_fname);
  } else {
    /* the main program is named as it was started (argv[0]), not by its path */
    ssize_t n = readlink("/proc/self/exe", module, size - 1);
    module[n > 0 ? n : 0] = 0;
  }
  *offset = (uint64_t)((const char *)addr - (const char *)info.dli_fbase);
  *base = info.dli_fbase;
  return 1;
}
#endif
