/*
 * VK_LAYER_HEAPSCOPE_capture: records a Vulkan program's GPU memory into a HeapScope capture (docs/capture-vulkan.md,
 * docs/capture-format-vulkan.md): the device, its memory allocations, buffers and images with their memory
 * requirements, binds, maps, flushes, names, submits and frames.
 *
 * Calls go down the chain first, without the lock, so a driver that calls back into the layer (device memory
 * reports) never meets a lock its own thread holds; what they did is then written under the one lock. Records
 * collect in memory and reach the file at each frame, whole lines only, so a program killed between frames leaves
 * a capture that reads up to its last frame.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "platform.h"

#define LAYER_NAME "VK_LAYER_HEAPSCOPE_capture"
#define LAYER_VERSION "1.0.0"
#define CAPTURE_MINOR 3
#define MAX_STACK 40
#define FLUSH_BYTES (1u << 20)

/* ---------------------------------------------------------------- output */

static struct {
  char *data;
  size_t length, capacity;
} out;

static void put(const char *s, size_t n) {
  if (out.length + n > out.capacity) {
    size_t capacity = out.capacity ? out.capacity : 1u << 16;
    while (out.length + n > capacity) capacity *= 2;
    char *data = realloc(out.data, capacity);
    if (!data) return;
    out.data = data;
    out.capacity = capacity;
  }
  memcpy(out.data + out.length, s, n);
  out.length += n;
}

static void puts_(const char *s) { put(s, strlen(s)); }

static void putf(const char *format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(line, sizeof line, format, args);
  va_end(args);
  if (n < 0) return;
  if ((size_t)n < sizeof line) {
    put(line, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) return;
  va_start(args, format);
  vsnprintf(big, (size_t)n + 1, format, args);
  va_end(args);
  put(big, (size_t)n);
  free(big);
}

/* A JSON string: quotes, backslashes and control characters escaped, other bytes as they are (UTF-8). */
static void put_string(const char *s) {
  put("\"", 1);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      char e[2] = {'\\', (char)*p};
      put(e, 2);
    } else if (*p < 0x20) {
      putf("\\u%04x", *p);
    } else {
      put((const char *)p, 1);
    }
  }
  put("\"", 1);
}

/* ---------------------------------------------------------------- state */

static struct {
  bool configured;
  char path[4096];
  int framesFrom; /* 0 auto (submits until the first present), 1 submit, 2 present */
  bool stacks;
  FILE *file;
  bool failed, headerWritten, presented;
  uint64_t nextId;
  uint64_t frame;
  double start;
  const void *ownBase;
} g;

enum { FRAMES_AUTO, FRAMES_SUBMIT, FRAMES_PRESENT };

static void configure(void) {
  if (g.configured) return;
  g.configured = true;
  g.nextId = 1;
  const char *frames = hs_getenv("HEAPSCOPE_FRAMES_FROM");
  g.framesFrom = frames && !strcmp(frames, "submit")    ? FRAMES_SUBMIT
                 : frames && !strcmp(frames, "present") ? FRAMES_PRESENT
                                                        : FRAMES_AUTO;
  const char *stacks = hs_getenv("HEAPSCOPE_STACKS");
  g.stacks = stacks && stacks[0] && strcmp(stacks, "0") != 0;
  /* the capture file: HEAPSCOPE_CAPTURE_FILE with %p as the process id, else <program>-<pid>.hscap here */
  const char *file = hs_getenv("HEAPSCOPE_CAPTURE_FILE");
  char name[256];
  if (file && file[0]) {
    size_t n = 0;
    for (const char *p = file; *p && n + 24 < sizeof g.path; p++) {
      if (p[0] == '%' && p[1] == 'p') {
        n += (size_t)snprintf(g.path + n, sizeof g.path - n, "%lu", hs_pid());
        p++;
      } else {
        g.path[n++] = *p;
      }
    }
    g.path[n] = 0;
  } else {
    hs_program_name(name, sizeof name);
    snprintf(g.path, sizeof g.path, "%s-%lu.hscap", name[0] ? name : "capture", hs_pid());
  }
  char module[1024];
  uint64_t offset;
  hs_module_of((const void *)&configure, module, sizeof module, &offset, &g.ownBase);
  hs_pin_module((const void *)&configure);
}

/* Write what has collected to the file; whole lines only. */
static void write_out(void) {
  if (!out.length) return;
  if (!g.file && !g.failed) {
    g.file = hs_open_write(g.path);
    if (!g.file) {
      g.failed = true;
      fprintf(stderr, "[" LAYER_NAME "] cannot write the capture %s\n", g.path);
    }
  }
  if (g.file) {
    fwrite(out.data, 1, out.length, g.file);
    fflush(g.file);
  }
  out.length = 0;
}

/* At exit, what is left reaches the file; it stays open for calls the program makes later still (its static
 * destructors), and the system closes it. */
static void at_exit(void) {
  hs_lock();
  write_out();
  hs_unlock();
}

/* ------------------------------------------------------- handle → id maps */

typedef struct {
  uint64_t key, id;
} Slot;

/* Open addressing with linear probing; a taken key leaves a tombstone, which a rehash clears. */
typedef struct {
  Slot *slots;
  /* used: slots ever filled since the last rehash (live keys and tombstones); live: keys present */
  size_t capacity, used, live;
} Map;

#define TOMBSTONE UINT64_MAX

static size_t slot_of(uint64_t key, size_t capacity) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return (size_t)key & (capacity - 1);
}

static Slot *map_find(Map *m, uint64_t key) {
  if (!m->capacity || !key) return NULL;
  for (size_t i = slot_of(key, m->capacity);; i = (i + 1) & (m->capacity - 1)) {
    if (m->slots[i].key == key) return &m->slots[i];
    if (m->slots[i].key == 0) return NULL;
  }
}

/* Insert a key known to be absent, into a map with room. */
static void map_insert(Map *m, uint64_t key, uint64_t id) {
  for (size_t i = slot_of(key, m->capacity);; i = (i + 1) & (m->capacity - 1)) {
    if (m->slots[i].key == 0 || m->slots[i].key == TOMBSTONE) {
      if (m->slots[i].key == 0) m->used++;
      m->slots[i] = (Slot){key, id};
      m->live++;
      return;
    }
  }
}

/* Rehash, into a table sized for the live keys: a program that makes and destroys objects all the time leaves
 * tombstones, not a table that keeps growing. */
static void map_rehash(Map *m) {
  size_t capacity = 256;
  while ((m->live + 1) * 2 > capacity) capacity *= 2;
  Map fresh = {calloc(capacity, sizeof(Slot)), capacity, 0, 0};
  if (!fresh.slots) return;
  for (size_t i = 0; i < m->capacity; i++)
    if (m->slots[i].key && m->slots[i].key != TOMBSTONE) map_insert(&fresh, m->slots[i].key, m->slots[i].id);
  free(m->slots);
  *m = fresh;
}

static void map_put(Map *m, uint64_t key, uint64_t id) {
  if (!key || key == TOMBSTONE) return;
  Slot *found = map_find(m, key);
  if (found) {
    found->id = id;
    return;
  }
  if ((m->used + 1) * 4 >= m->capacity * 3) map_rehash(m);
  if ((m->used + 1) * 4 >= m->capacity * 3) return; /* no memory for a bigger table */
  map_insert(m, key, id);
}

static bool map_take(Map *m, uint64_t key, uint64_t *id) {
  Slot *s = map_find(m, key);
  if (!s) return false;
  *id = s->id;
  s->key = TOMBSTONE;
  m->live--;
  return true;
}

static Map memories, buffers, images;

/* ------------------------------------------------------ dispatch tables */

typedef struct Instance {
  void *key;
  VkInstance handle;
  uint32_t apiVersion;
  char appName[256];
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
  PFN_vkDestroyInstance DestroyInstance;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
  PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties;
  PFN_vkGetPhysicalDeviceMemoryProperties2 GetPhysicalDeviceMemoryProperties2;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties;
} Instance;

typedef struct Swapchain {
  uint64_t handle;
  VkFormat format;
  VkExtent2D extent;
  uint32_t layers;
  VkImageUsageFlags usage;
  uint64_t *images;
  uint32_t count;
} Swapchain;

typedef struct Device {
  void *key;
  VkDevice handle;
  VkPhysicalDevice physical;
  Instance *instance;
  bool recorded, budget, memoryReport;
  VkPhysicalDeviceMemoryProperties memory;
  VkDeviceSize lastBudget[VK_MAX_MEMORY_HEAPS], lastUsage[VK_MAX_MEMORY_HEAPS];
  Swapchain *swapchains;
  uint32_t swapchainCount;
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
  PFN_vkDestroyDevice DestroyDevice;
  PFN_vkAllocateMemory AllocateMemory;
  PFN_vkFreeMemory FreeMemory;
  PFN_vkMapMemory MapMemory;
  PFN_vkUnmapMemory UnmapMemory;
  PFN_vkFlushMappedMemoryRanges FlushMappedMemoryRanges;
  PFN_vkCreateBuffer CreateBuffer;
  PFN_vkDestroyBuffer DestroyBuffer;
  PFN_vkCreateImage CreateImage;
  PFN_vkDestroyImage DestroyImage;
  PFN_vkBindBufferMemory BindBufferMemory;
  PFN_vkBindImageMemory BindImageMemory;
  PFN_vkBindBufferMemory2 BindBufferMemory2;
  PFN_vkBindBufferMemory2 BindBufferMemory2KHR;
  PFN_vkBindImageMemory2 BindImageMemory2;
  PFN_vkBindImageMemory2 BindImageMemory2KHR;
  PFN_vkGetBufferMemoryRequirements GetBufferMemoryRequirements;
  PFN_vkGetImageMemoryRequirements GetImageMemoryRequirements;
  PFN_vkGetBufferMemoryRequirements2 GetBufferMemoryRequirements2;
  PFN_vkGetImageMemoryRequirements2 GetImageMemoryRequirements2;
  PFN_vkQueueSubmit QueueSubmit;
  PFN_vkQueueSubmit2 QueueSubmit2;
  PFN_vkQueueSubmit2 QueueSubmit2KHR;
  PFN_vkQueuePresentKHR QueuePresentKHR;
  PFN_vkCreateSwapchainKHR CreateSwapchainKHR;
  PFN_vkDestroySwapchainKHR DestroySwapchainKHR;
  PFN_vkGetSwapchainImagesKHR GetSwapchainImagesKHR;
  PFN_vkSetDebugUtilsObjectNameEXT SetDebugUtilsObjectNameEXT;
  PFN_vkDebugMarkerSetObjectNameEXT DebugMarkerSetObjectNameEXT;
} Device;

/* The live instances and devices, under the lock. */
typedef struct {
  void **items;
  size_t count, capacity;
} List;

static bool list_add(List *list, void *item) {
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? list->capacity * 2 : 8;
    void **items = realloc(list->items, sizeof(void *) * capacity);
    if (!items) return false;
    list->items = items;
    list->capacity = capacity;
  }
  list->items[list->count++] = item;
  return true;
}

static void list_remove(List *list, const void *item) {
  for (size_t i = 0; i < list->count; i++)
    if (list->items[i] == item) {
      list->items[i] = list->items[--list->count];
      return;
    }
}

static List instances, devices;

static void *key_of(const void *dispatchable) { return *(void *const *)dispatchable; }

static Instance *instance_of(const void *dispatchable) {
  void *key = key_of(dispatchable);
  Instance *found = NULL;
  hs_lock();
  for (size_t i = 0; i < instances.count && !found; i++)
    if (((Instance *)instances.items[i])->key == key) found = instances.items[i];
  hs_unlock();
  return found;
}

static Device *device_of(const void *dispatchable) {
  void *key = key_of(dispatchable);
  Device *found = NULL;
  hs_lock();
  for (size_t i = 0; i < devices.count && !found; i++)
    if (((Device *)devices.items[i])->key == key) found = devices.items[i];
  hs_unlock();
  return found;
}

/* The device the capture records: one at a time, the first created while none is recorded. */
static Device *recorded;

/* ---------------------------------------------------------- call stacks */

typedef struct {
  uint64_t hash, id;
  int count;
  void *frames[MAX_STACK];
} Stack;

static Stack *stacks;
static size_t stackCapacity, stackCount;
static uint64_t nextStackId = 1;

typedef struct {
  int count;
  void *frames[MAX_STACK];
} Captured;

static void capture_stack(Captured *c) {
  c->count = g.stacks ? hs_backtrace(c->frames, MAX_STACK) : 0;
}

/* The stack's id, written as a `stack` record the first time it is seen (under the lock). 0: none. */
static uint64_t intern_stack(const Captured *c) {
  if (c->count <= 0) return 0;
  uint64_t hash = 1469598103934665603ull;
  for (int i = 0; i < c->count; i++) hash = (hash ^ (uint64_t)(uintptr_t)c->frames[i]) * 1099511628211ull;
  if (!hash) hash = 1;
  if ((stackCount + 1) * 2 >= stackCapacity) {
    size_t capacity = stackCapacity ? stackCapacity * 2 : 256;
    Stack *bigger = calloc(capacity, sizeof(Stack));
    if (!bigger) return 0;
    for (size_t i = 0; i < stackCapacity; i++) {
      if (!stacks[i].hash) continue;
      size_t j = slot_of(stacks[i].hash, capacity);
      while (bigger[j].hash) j = (j + 1) & (capacity - 1);
      bigger[j] = stacks[i];
    }
    free(stacks);
    stacks = bigger;
    stackCapacity = capacity;
  }
  size_t i = slot_of(hash, stackCapacity);
  for (; stacks[i].hash; i = (i + 1) & (stackCapacity - 1)) {
    if (stacks[i].hash == hash && stacks[i].count == c->count &&
        !memcmp(stacks[i].frames, c->frames, sizeof(void *) * (size_t)c->count))
      return stacks[i].id;
  }
  Stack *s = &stacks[i];
  s->hash = hash;
  s->id = nextStackId++;
  s->count = c->count;
  memcpy(s->frames, c->frames, sizeof(void *) * (size_t)c->count);
  stackCount++;
  putf("{\"e\":\"stack\",\"id\":%llu,\"frames\":[", (unsigned long long)s->id);
  bool first = true;
  for (int k = 0; k < c->count; k++) {
    char module[1024];
    uint64_t offset;
    const void *base = NULL;
    if (!hs_module_of(c->frames[k], module, sizeof module, &offset, &base)) {
      if (!first) put(",", 1);
      first = false;
      putf("{\"address\":%llu}", (unsigned long long)(uintptr_t)c->frames[k]);
      continue;
    }
    if (base == g.ownBase) continue; /* the layer's own frames */
    if (!first) put(",", 1);
    first = false;
    puts_("{\"module\":");
    put_string(module);
    putf(",\"offset\":%llu}", (unsigned long long)offset);
  }
  puts_("]}\n");
  return s->id;
}

static void put_stack_field(uint64_t stack) {
  if (stack) putf(",\"stack\":%llu", (unsigned long long)stack);
}

/* -------------------------------------------------------------- names */

static const char *const PROPERTY_FLAGS[] = {"DEVICE_LOCAL",        "HOST_VISIBLE",        "HOST_COHERENT",
                                             "HOST_CACHED",         "LAZILY_ALLOCATED",    "PROTECTED",
                                             "DEVICE_COHERENT_AMD", "DEVICE_UNCACHED_AMD", "RDMA_CAPABLE_NV"};

static void put_flag_names(uint32_t mask, const char *const *names, int count) {
  put("[", 1);
  bool first = true;
  for (int i = 0; i < count; i++) {
    if (!(mask & (1u << i))) continue;
    if (!first) put(",", 1);
    first = false;
    put_string(names[i]);
  }
  put("]", 1);
}

/* VkBufferUsageFlags as the capture's buffer usage names (docs/capture-format.md). */
static void put_buffer_usage(VkBufferUsageFlags usage) {
  static const struct {
    VkBufferUsageFlags bit;
    const char *name;
  } table[] = {
      {VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, "UnorderedAccess"},
      {VK_BUFFER_USAGE_TRANSFER_SRC_BIT, "SourceCopy"},
      {VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "DrawIndirect"},
      {VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, "ShaderResource"},
      {VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR, "AccelerationStructure"},
      {VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, "VertexBuffer"},
      {VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "IndexBuffer"},
      {VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "StructuredBuffer"},
      {VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, "Uniform"},
  };
  put("[", 1);
  bool first = true;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (!(usage & table[i].bit)) continue;
    if (!first) put(",", 1);
    first = false;
    put_string(table[i].name);
  }
  put("]", 1);
}

/* VkImageUsageFlags as the capture's texture flag names. */
static void put_image_flags(VkImageUsageFlags usage) {
  static const struct {
    VkImageUsageFlags bit;
    const char *name;
  } table[] = {
      {VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, "ShaderResource"},
      {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, "RenderTargetable"},
      {VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, "DepthStencilTargetable"},
      {VK_IMAGE_USAGE_STORAGE_BIT, "UAV"},
  };
  put("[", 1);
  bool first = true;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (!(usage & table[i].bit)) continue;
    if (!first) put(",", 1);
    first = false;
    put_string(table[i].name);
  }
  put("]", 1);
}

/* The DXGI spelling of common VkFormats, as the capture's `format` names them; NULL for the others (the record
 * then carries only `vkFormat`). */
static const char *format_name(VkFormat f) {
  switch (f) {
  case VK_FORMAT_R8_UNORM: return "R8_UNORM";
  case VK_FORMAT_R8G8_UNORM: return "R8G8_UNORM";
  case VK_FORMAT_R8G8B8A8_UNORM: return "R8G8B8A8_UNORM";
  case VK_FORMAT_R8G8B8A8_SRGB: return "R8G8B8A8_UNORM_SRGB";
  case VK_FORMAT_B8G8R8A8_UNORM: return "B8G8R8A8_UNORM";
  case VK_FORMAT_B8G8R8A8_SRGB: return "B8G8R8A8_UNORM_SRGB";
  case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return "R10G10B10A2_UNORM";
  case VK_FORMAT_B10G11R11_UFLOAT_PACK32: return "R11G11B10_FLOAT";
  case VK_FORMAT_R16_SFLOAT: return "R16_FLOAT";
  case VK_FORMAT_R16G16_SFLOAT: return "R16G16_FLOAT";
  case VK_FORMAT_R16G16B16A16_SFLOAT: return "R16G16B16A16_FLOAT";
  case VK_FORMAT_R32_SFLOAT: return "R32_FLOAT";
  case VK_FORMAT_R32G32_SFLOAT: return "R32G32_FLOAT";
  case VK_FORMAT_R32G32B32A32_SFLOAT: return "R32G32B32A32_FLOAT";
  case VK_FORMAT_R32_UINT: return "R32_UINT";
  case VK_FORMAT_D16_UNORM: return "D16_UNORM";
  case VK_FORMAT_D32_SFLOAT: return "D32_FLOAT";
  case VK_FORMAT_D24_UNORM_S8_UINT: return "D24_UNORM_S8_UINT";
  case VK_FORMAT_D32_SFLOAT_S8_UINT: return "D32_FLOAT_S8X24_UINT";
  case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: return "BC1_UNORM";
  case VK_FORMAT_BC3_UNORM_BLOCK: return "BC3_UNORM";
  case VK_FORMAT_BC5_UNORM_BLOCK: return "BC5_UNORM";
  case VK_FORMAT_BC7_UNORM_BLOCK: return "BC7_UNORM";
  case VK_FORMAT_BC7_SRGB_BLOCK: return "BC7_UNORM_SRGB";
  default: return NULL;
  }
}

static const char *device_type_name(VkPhysicalDeviceType t) {
  switch (t) {
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
  case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
  default: return "other";
  }
}

/* ------------------------------------------------------------- records */

static uint64_t new_id(void) { return g.nextId++; }

/* The memory budget and usage of each heap, when the device has VK_EXT_memory_budget (outside the lock). */
static bool query_budget(Device *d, VkPhysicalDeviceMemoryBudgetPropertiesEXT *budget) {
  if (!d->budget || !d->instance->GetPhysicalDeviceMemoryProperties2) return false;
  memset(budget, 0, sizeof *budget);
  budget->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT;
  VkPhysicalDeviceMemoryProperties2 properties = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, budget, {0}};
  d->instance->GetPhysicalDeviceMemoryProperties2(d->physical, &properties);
  return true;
}

static void write_header(Device *d, const VkPhysicalDeviceMemoryBudgetPropertiesEXT *budget) {
  VkPhysicalDeviceProperties p;
  d->instance->GetPhysicalDeviceProperties(d->physical, &p);
  const VkPhysicalDeviceMemoryProperties *m = &d->memory;
  char when[32], program[256];
  hs_utc_iso(when, sizeof when);
  hs_program_name(program, sizeof program);
  VkDeviceSize vram = 0, localBudget = 0;
  for (uint32_t h = 0; h < m->memoryHeapCount; h++) {
    if (!(m->memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)) continue;
    vram += m->memoryHeaps[h].size;
    if (budget) localBudget += budget->heapBudget[h];
  }
  puts_("{\"format\":\"heapscope-capture\",\"version\":1,\"minor\":3,\"api\":\"vulkan\",\"app\":");
  put_string(d->instance->appName[0] ? d->instance->appName : program);
  puts_(",\"captured\":");
  put_string(when);
  puts_(",\"adapter\":{\"name\":");
  put_string(p.deviceName);
  putf(",\"vram\":%llu,\"uma\":%s}", (unsigned long long)vram,
       p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU || p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? "true"
                                                                                                            : "false");
  if (budget) putf(",\"budget\":%llu", (unsigned long long)localBudget);
  puts_(",\"vulkan\":{\"memoryHeaps\":[");
  for (uint32_t h = 0; h < m->memoryHeapCount; h++) {
    putf("%s{\"size\":%llu,\"flags\":", h ? "," : "", (unsigned long long)m->memoryHeaps[h].size);
    static const char *const heapFlags[] = {"DEVICE_LOCAL", "MULTI_INSTANCE"};
    put_flag_names(m->memoryHeaps[h].flags, heapFlags, 2);
    if (budget)
      putf(",\"budget\":%llu,\"usage\":%llu", (unsigned long long)budget->heapBudget[h],
           (unsigned long long)budget->heapUsage[h]);
    put("}", 1);
  }
  puts_("],\"memoryTypes\":[");
  for (uint32_t t = 0; t < m->memoryTypeCount; t++) {
    putf("%s{\"heapIndex\":%u,\"propertyFlags\":", t ? "," : "", m->memoryTypes[t].heapIndex);
    put_flag_names(m->memoryTypes[t].propertyFlags, PROPERTY_FLAGS, 9);
    put("}", 1);
  }
  putf("],\"maxMemoryAllocationCount\":%u,\"bufferImageGranularity\":%llu,\"nonCoherentAtomSize\":%llu",
       p.limits.maxMemoryAllocationCount, (unsigned long long)p.limits.bufferImageGranularity,
       (unsigned long long)p.limits.nonCoherentAtomSize);
  putf(",\"apiVersion\":\"%u.%u.%u\",\"deviceName\":", VK_API_VERSION_MAJOR(p.apiVersion),
       VK_API_VERSION_MINOR(p.apiVersion), VK_API_VERSION_PATCH(p.apiVersion));
  put_string(p.deviceName);
  putf(",\"vendorID\":%u,\"deviceID\":%u,\"driverVersion\":%u,\"deviceType\":\"%s\"}", p.vendorID, p.deviceID,
       p.driverVersion, device_type_name(p.deviceType));
  puts_(",\"recorder\":{\"layer\":\"" LAYER_NAME "\",\"version\":\"" LAYER_VERSION "\"");
  putf(",\"pid\":%lu,\"framesFrom\":\"%s\",\"stacks\":%s,\"memoryBudget\":%s,\"memoryReport\":%s}}\n", hs_pid(),
       g.framesFrom == FRAMES_SUBMIT ? "submit" : g.framesFrom == FRAMES_PRESENT ? "present" : "auto",
       g.stacks ? "true" : "false", d->budget ? "true" : "false", d->memoryReport ? "true" : "false");
  g.headerWritten = true;
  g.start = hs_now_ms();
}

/* `budget` records for the heaps whose budget or usage moved since the last ones (under the lock). */
static void put_budget_changes(Device *d, const VkPhysicalDeviceMemoryBudgetPropertiesEXT *budget) {
  for (uint32_t h = 0; h < d->memory.memoryHeapCount; h++) {
    if (budget->heapBudget[h] == d->lastBudget[h] && budget->heapUsage[h] == d->lastUsage[h]) continue;
    d->lastBudget[h] = budget->heapBudget[h];
    d->lastUsage[h] = budget->heapUsage[h];
    putf("{\"e\":\"budget\",\"bytes\":%llu,\"heap\":%u,\"heapUsage\":%llu}\n", (unsigned long long)budget->heapBudget[h],
         h, (unsigned long long)budget->heapUsage[h]);
  }
}

/* A frame ends: the next begins, the budget is compared and everything so far reaches the file. */
static void frame_boundary(Device *d) {
  VkPhysicalDeviceMemoryBudgetPropertiesEXT budget;
  bool haveBudget = query_budget(d, &budget);
  hs_lock();
  if (d == recorded) {
    g.frame++;
    putf("{\"e\":\"frame\",\"n\":%llu,\"t\":%.3f}\n", (unsigned long long)g.frame, hs_now_ms() - g.start);
    if (haveBudget) put_budget_changes(d, &budget);
    write_out();
  }
  hs_unlock();
}

static void maybe_write_out(void) {
  if (out.length >= FLUSH_BYTES) write_out();
}

/* ------------------------------------------------------------- device */

static VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks *allocator) {
  Device *d = device_of(device);
  if (!d) return;
  PFN_vkDestroyDevice next = d->DestroyDevice;
  hs_lock();
  list_remove(&devices, d);
  if (recorded == d) {
    recorded = NULL;
    write_out();
  }
  hs_unlock();
  /* the driver may still report memory while the device goes: d lives until then */
  next(device, allocator);
  for (uint32_t s = 0; s < d->swapchainCount; s++) {
    free(d->swapchains[s].images);
  }
  free(d->swapchains);
  free(d);
}

static VKAPI_ATTR VkResult VKAPI_CALL AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *info,
                                                     const VkAllocationCallbacks *allocator, VkDeviceMemory *memory) {
  Device *d = device_of(device);
  Captured stack;
  capture_stack(&stack);
  VkResult result = d->AllocateMemory(device, info, allocator, memory);
  if (result != VK_SUCCESS) return result;
  uint64_t dedicatedBuffer = 0, dedicatedImage = 0;
  float priority = -1.0f;
  for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO) {
      const VkMemoryDedicatedAllocateInfo *dedicated = (const VkMemoryDedicatedAllocateInfo *)s;
      dedicatedBuffer = (uint64_t)dedicated->buffer;
      dedicatedImage = (uint64_t)dedicated->image;
    } else if (s->sType == VK_STRUCTURE_TYPE_MEMORY_PRIORITY_ALLOCATE_INFO_EXT) {
      priority = ((const VkMemoryPriorityAllocateInfoEXT *)s)->priority;
    }
  }
  hs_lock();
  if (d == recorded) {
    uint64_t stackId = intern_stack(&stack);
    uint64_t id = new_id();
    map_put(&memories, (uint64_t)*memory, id);
    putf("{\"e\":\"heap\",\"id\":%llu,\"size\":%llu,\"memoryType\":%u", (unsigned long long)id,
         (unsigned long long)info->allocationSize, info->memoryTypeIndex);
    Slot *to = dedicatedBuffer ? map_find(&buffers, dedicatedBuffer) : map_find(&images, dedicatedImage);
    if (to) putf(",\"dedicatedTo\":%llu", (unsigned long long)to->id);
    if (priority >= 0.0f) putf(",\"priority\":%g", (double)priority);
    put_stack_field(stackId);
    puts_("}\n");
    maybe_write_out();
  }
  hs_unlock();
  return result;
}

static VKAPI_ATTR void VKAPI_CALL FreeMemory(VkDevice device, VkDeviceMemory memory,
                                             const VkAllocationCallbacks *allocator) {
  Device *d = device_of(device);
  d->FreeMemory(device, memory, allocator);
  hs_lock();
  uint64_t id;
  if (d == recorded && map_take(&memories, (uint64_t)memory, &id)) putf("{\"e\":\"free\",\"id\":%llu}\n", (unsigned long long)id);
  hs_unlock();
}

static VKAPI_ATTR VkResult VKAPI_CALL MapMemory(VkDevice device, VkDeviceMemory memory, VkDeviceSize offset,
                                                VkDeviceSize size, VkMemoryMapFlags flags, void **data) {
  Device *d = device_of(device);
  VkResult result = d->MapMemory(device, memory, offset, size, flags, data);
  if (result != VK_SUCCESS) return result;
  hs_lock();
  Slot *m = d == recorded ? map_find(&memories, (uint64_t)memory) : NULL;
  if (m) {
    putf("{\"e\":\"map\",\"memory\":%llu,\"offset\":%llu", (unsigned long long)m->id, (unsigned long long)offset);
    if (size != VK_WHOLE_SIZE) putf(",\"size\":%llu", (unsigned long long)size);
    puts_("}\n");
  }
  hs_unlock();
  return result;
}

static VKAPI_ATTR void VKAPI_CALL UnmapMemory(VkDevice device, VkDeviceMemory memory) {
  Device *d = device_of(device);
  d->UnmapMemory(device, memory);
  hs_lock();
  Slot *m = d == recorded ? map_find(&memories, (uint64_t)memory) : NULL;
  if (m) putf("{\"e\":\"unmap\",\"memory\":%llu}\n", (unsigned long long)m->id);
  hs_unlock();
}

static VKAPI_ATTR VkResult VKAPI_CALL FlushMappedMemoryRanges(VkDevice device, uint32_t count,
                                                              const VkMappedMemoryRange *ranges) {
  Device *d = device_of(device);
  VkResult result = d->FlushMappedMemoryRanges(device, count, ranges);
  hs_lock();
  for (uint32_t i = 0; d == recorded && i < count; i++) {
    Slot *m = map_find(&memories, (uint64_t)ranges[i].memory);
    if (!m) continue;
    putf("{\"e\":\"flush\",\"memory\":%llu,\"offset\":%llu", (unsigned long long)m->id,
         (unsigned long long)ranges[i].offset);
    if (ranges[i].size != VK_WHOLE_SIZE) putf(",\"size\":%llu", (unsigned long long)ranges[i].size);
    puts_("}\n");
  }
  hs_unlock();
  return result;
}

typedef struct {
  VkMemoryRequirements requirements;
  int dedicated; /* 0 none, 1 preferred, 2 required */
  bool known;
} Requirements;

static void put_requirements(const Requirements *r) {
  if (!r->known) return;
  putf(",\"memoryRequirements\":{\"size\":%llu,\"alignment\":%llu,\"memoryTypeBits\":%u}",
       (unsigned long long)r->requirements.size, (unsigned long long)r->requirements.alignment,
       r->requirements.memoryTypeBits);
  if (r->dedicated) putf(",\"dedicated\":\"%s\"", r->dedicated == 2 ? "required" : "preferred");
}

static void buffer_requirements(Device *d, VkBuffer buffer, Requirements *r) {
  memset(r, 0, sizeof *r);
  if (d->GetBufferMemoryRequirements2) {
    VkMemoryDedicatedRequirements dedicated = {VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS, NULL, 0, 0};
    VkMemoryRequirements2 requirements = {VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, &dedicated, {0}};
    VkBufferMemoryRequirementsInfo2 info = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, NULL, buffer};
    d->GetBufferMemoryRequirements2(d->handle, &info, &requirements);
    r->requirements = requirements.memoryRequirements;
    r->dedicated = dedicated.requiresDedicatedAllocation ? 2 : dedicated.prefersDedicatedAllocation ? 1 : 0;
  } else {
    d->GetBufferMemoryRequirements(d->handle, buffer, &r->requirements);
  }
  r->known = true;
}

static void image_requirements(Device *d, VkImage image, const VkImageCreateInfo *create, Requirements *r) {
  memset(r, 0, sizeof *r);
  /* a disjoint image has one requirement per plane, and an external one may have none before it is bound */
  if (create->flags & VK_IMAGE_CREATE_DISJOINT_BIT) return;
  for (const VkBaseInStructure *s = create->pNext; s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO) return;
  if (d->GetImageMemoryRequirements2) {
    VkMemoryDedicatedRequirements dedicated = {VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS, NULL, 0, 0};
    VkMemoryRequirements2 requirements = {VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, &dedicated, {0}};
    VkImageMemoryRequirementsInfo2 info = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2, NULL, image};
    d->GetImageMemoryRequirements2(d->handle, &info, &requirements);
    r->requirements = requirements.memoryRequirements;
    r->dedicated = dedicated.requiresDedicatedAllocation ? 2 : dedicated.prefersDedicatedAllocation ? 1 : 0;
  } else {
    d->GetImageMemoryRequirements(d->handle, image, &r->requirements);
  }
  r->known = true;
}

static VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice device, const VkBufferCreateInfo *info,
                                                   const VkAllocationCallbacks *allocator, VkBuffer *buffer) {
  Device *d = device_of(device);
  Captured stack;
  capture_stack(&stack);
  VkResult result = d->CreateBuffer(device, info, allocator, buffer);
  if (result != VK_SUCCESS || d != recorded) return result;
  Requirements r;
  buffer_requirements(d, *buffer, &r);
  hs_lock();
  if (d == recorded) {
    uint64_t stackId = intern_stack(&stack);
    uint64_t id = new_id();
    map_put(&buffers, (uint64_t)*buffer, id);
    putf("{\"e\":\"buffer\",\"id\":%llu,\"size\":%llu,\"usage\":", (unsigned long long)id, (unsigned long long)info->size);
    put_buffer_usage(info->usage);
    puts_(",\"explicit\":true");
    put_requirements(&r);
    putf(",\"vkUsage\":%u", info->usage);
    if (info->flags) putf(",\"vkFlags\":%u", info->flags);
    put_stack_field(stackId);
    puts_("}\n");
    maybe_write_out();
  }
  hs_unlock();
  return result;
}

static void release(Map *map, uint64_t handle) {
  uint64_t id;
  if (map_take(map, handle, &id)) putf("{\"e\":\"release\",\"id\":%llu}\n", (unsigned long long)id);
}

static VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks *allocator) {
  Device *d = device_of(device);
  d->DestroyBuffer(device, buffer, allocator);
  hs_lock();
  if (d == recorded) release(&buffers, (uint64_t)buffer);
  hs_unlock();
}

/* The texture fields shared by images the program creates and swapchain images. */
static void put_texture_desc(VkImageType type, VkFormat format, VkExtent3D extent, uint32_t mips, uint32_t layers,
                             VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageCreateFlags flags) {
  const char *dim = type == VK_IMAGE_TYPE_3D ? "3d"
                    : (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) && layers % 6 == 0
                        ? (layers > 6 ? "cubearray" : "cube")
                    : layers > 1 ? "2darray"
                                 : "2d";
  putf(",\"dim\":\"%s\"", dim);
  const char *name = format_name(format);
  if (name) putf(",\"format\":\"%s\"", name);
  putf(",\"width\":%u,\"height\":%u,\"depth\":%u,\"mips\":%u,\"samples\":%u,\"flags\":", extent.width, extent.height,
       type == VK_IMAGE_TYPE_3D ? extent.depth : layers, mips, (unsigned)samples);
  put_image_flags(usage);
}

static VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice device, const VkImageCreateInfo *info,
                                                  const VkAllocationCallbacks *allocator, VkImage *image) {
  Device *d = device_of(device);
  Captured stack;
  capture_stack(&stack);
  VkResult result = d->CreateImage(device, info, allocator, image);
  if (result != VK_SUCCESS || d != recorded) return result;
  Requirements r;
  image_requirements(d, *image, info, &r);
  hs_lock();
  if (d == recorded) {
    uint64_t stackId = intern_stack(&stack);
    uint64_t id = new_id();
    map_put(&images, (uint64_t)*image, id);
    putf("{\"e\":\"texture\",\"id\":%llu", (unsigned long long)id);
    put_texture_desc(info->imageType, info->format, info->extent, info->mipLevels, info->arrayLayers, info->samples,
                     info->usage, info->flags);
    putf(",\"explicit\":true,\"tiling\":\"%s\"", info->tiling == VK_IMAGE_TILING_LINEAR ? "linear" : "optimal");
    put_requirements(&r);
    putf(",\"vkFormat\":%u,\"vkUsage\":%u", (unsigned)info->format, info->usage);
    if (info->flags) putf(",\"vkFlags\":%u", info->flags);
    put_stack_field(stackId);
    puts_("}\n");
    maybe_write_out();
  }
  hs_unlock();
  return result;
}

static VKAPI_ATTR void VKAPI_CALL DestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks *allocator) {
  Device *d = device_of(device);
  d->DestroyImage(device, image, allocator);
  hs_lock();
  if (d == recorded) release(&images, (uint64_t)image);
  hs_unlock();
}

static void put_bind(Map *resources, uint64_t resource, uint64_t memory, VkDeviceSize offset) {
  Slot *r = map_find(resources, resource);
  Slot *m = map_find(&memories, memory);
  if (!r || !m) return;
  putf("{\"e\":\"bind\",\"id\":%llu,\"memory\":%llu,\"offset\":%llu}\n", (unsigned long long)r->id,
       (unsigned long long)m->id, (unsigned long long)offset);
}

static VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                                                       VkDeviceSize offset) {
  Device *d = device_of(device);
  VkResult result = d->BindBufferMemory(device, buffer, memory, offset);
  if (result != VK_SUCCESS) return result;
  hs_lock();
  if (d == recorded) put_bind(&buffers, (uint64_t)buffer, (uint64_t)memory, offset);
  hs_unlock();
  return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                                      VkDeviceSize offset) {
  Device *d = device_of(device);
  VkResult result = d->BindImageMemory(device, image, memory, offset);
  if (result != VK_SUCCESS) return result;
  hs_lock();
  if (d == recorded) put_bind(&images, (uint64_t)image, (uint64_t)memory, offset);
  hs_unlock();
  return result;
}

static void put_buffer_binds(Device *d, uint32_t count, const VkBindBufferMemoryInfo *infos) {
  hs_lock();
  for (uint32_t i = 0; d == recorded && i < count; i++)
    put_bind(&buffers, (uint64_t)infos[i].buffer, (uint64_t)infos[i].memory, infos[i].memoryOffset);
  hs_unlock();
}

static void put_image_binds(Device *d, uint32_t count, const VkBindImageMemoryInfo *infos) {
  hs_lock();
  for (uint32_t i = 0; d == recorded && i < count; i++) {
    /* a swapchain image bound through VkBindImageMemorySwapchainInfoKHR has no memory of the program's */
    if (infos[i].memory == VK_NULL_HANDLE) continue;
    put_bind(&images, (uint64_t)infos[i].image, (uint64_t)infos[i].memory, infos[i].memoryOffset);
  }
  hs_unlock();
}

static VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory2(VkDevice device, uint32_t count,
                                                        const VkBindBufferMemoryInfo *infos) {
  Device *d = device_of(device);
  VkResult result = d->BindBufferMemory2(device, count, infos);
  if (result == VK_SUCCESS) put_buffer_binds(d, count, infos);
  return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory2KHR(VkDevice device, uint32_t count,
                                                           const VkBindBufferMemoryInfo *infos) {
  Device *d = device_of(device);
  VkResult result = d->BindBufferMemory2KHR(device, count, infos);
  if (result == VK_SUCCESS) put_buffer_binds(d, count, infos);
  return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory2(VkDevice device, uint32_t count,
                                                       const VkBindImageMemoryInfo *infos) {
  Device *d = device_of(device);
  VkResult result = d->BindImageMemory2(device, count, infos);
  if (result == VK_SUCCESS) put_image_binds(d, count, infos);
  return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory2KHR(VkDevice device, uint32_t count,
                                                          const VkBindImageMemoryInfo *infos) {
  Device *d = device_of(device);
  VkResult result = d->BindImageMemory2KHR(device, count, infos);
  if (result == VK_SUCCESS) put_image_binds(d, count, infos);
  return result;
}

/* A submit: a `submit` record, and the end of a frame when frames come from submits. */
static void submitted(Device *d) {
  bool boundary = g.framesFrom == FRAMES_SUBMIT || (g.framesFrom == FRAMES_AUTO && !g.presented);
  hs_lock();
  if (d == recorded) puts_("{\"e\":\"submit\"}\n");
  hs_unlock();
  if (boundary) frame_boundary(d);
}

static VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits,
                                                  VkFence fence) {
  Device *d = device_of(queue);
  VkResult result = d->QueueSubmit(queue, count, submits, fence);
  if (result == VK_SUCCESS) submitted(d);
  return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                   VkFence fence) {
  Device *d = device_of(queue);
  VkResult result = d->QueueSubmit2(queue, count, submits, fence);
  if (result == VK_SUCCESS) submitted(d);
  return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2KHR(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                      VkFence fence) {
  Device *d = device_of(queue);
  VkResult result = d->QueueSubmit2KHR(queue, count, submits, fence);
  if (result == VK_SUCCESS) submitted(d);
  return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *info) {
  Device *d = device_of(queue);
  VkResult result = d->QueuePresentKHR(queue, info);
  if (g.framesFrom != FRAMES_SUBMIT) {
    g.presented = true;
    frame_boundary(d);
  }
  return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR *info,
                                                         const VkAllocationCallbacks *allocator,
                                                         VkSwapchainKHR *swapchain) {
  Device *d = device_of(device);
  VkResult result = d->CreateSwapchainKHR(device, info, allocator, swapchain);
  if (result != VK_SUCCESS) return result;
  hs_lock();
  Swapchain *grown = realloc(d->swapchains, sizeof(Swapchain) * (d->swapchainCount + 1));
  if (grown) {
    d->swapchains = grown;
    d->swapchains[d->swapchainCount++] = (Swapchain){(uint64_t)*swapchain, info->imageFormat, info->imageExtent,
                                                     info->imageArrayLayers, info->imageUsage, NULL, 0};
  }
  hs_unlock();
  return result;
}

static Swapchain *swapchain_of(Device *d, VkSwapchainKHR handle) {
  for (uint32_t s = 0; s < d->swapchainCount; s++)
    if (d->swapchains[s].handle == (uint64_t)handle) return &d->swapchains[s];
  return NULL;
}

static VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                      const VkAllocationCallbacks *allocator) {
  Device *d = device_of(device);
  d->DestroySwapchainKHR(device, swapchain, allocator);
  hs_lock();
  Swapchain *s = swapchain_of(d, swapchain);
  if (s) {
    for (uint32_t i = 0; d == recorded && i < s->count; i++) release(&images, s->images[i]);
    free(s->images);
    *s = d->swapchains[--d->swapchainCount];
  }
  hs_unlock();
}

/* Swapchain images are resources the driver allocated out of sight: textures the model places itself. */
static VKAPI_ATTR VkResult VKAPI_CALL GetSwapchainImagesKHR(VkDevice device, VkSwapchainKHR swapchain, uint32_t *count,
                                                            VkImage *images_) {
  Device *d = device_of(device);
  VkResult result = d->GetSwapchainImagesKHR(device, swapchain, count, images_);
  if (!images_ || (result != VK_SUCCESS && result != VK_INCOMPLETE)) return result;
  hs_lock();
  Swapchain *s = swapchain_of(d, swapchain);
  for (uint32_t i = 0; s && d == recorded && i < *count; i++) {
    if (map_find(&images, (uint64_t)images_[i])) continue;
    uint64_t *grown = realloc(s->images, sizeof(uint64_t) * (s->count + 1));
    if (!grown) break;
    s->images = grown;
    s->images[s->count++] = (uint64_t)images_[i];
    uint64_t id = new_id();
    map_put(&images, (uint64_t)images_[i], id);
    putf("{\"e\":\"texture\",\"id\":%llu", (unsigned long long)id);
    put_texture_desc(VK_IMAGE_TYPE_2D, s->format, (VkExtent3D){s->extent.width, s->extent.height, 1}, 1, s->layers,
                     VK_SAMPLE_COUNT_1_BIT, s->usage, 0);
    /* drivers give presentable images memory of their own: the model places them dedicated */
    putf(",\"dedicated\":\"preferred\",\"vkFormat\":%u,\"vkUsage\":%u,\"swapchain\":true}\n", (unsigned)s->format,
         s->usage);
  }
  hs_unlock();
  return result;
}

/* A name for a buffer, image or memory object: a `name` record each time, so a later rename is kept too. */
static void named(Device *d, VkObjectType type, uint64_t handle, const char *name) {
  Map *map = type == VK_OBJECT_TYPE_BUFFER          ? &buffers
             : type == VK_OBJECT_TYPE_IMAGE         ? &images
             : type == VK_OBJECT_TYPE_DEVICE_MEMORY ? &memories
                                                    : NULL;
  if (!map || !name) return;
  hs_lock();
  Slot *s = d == recorded ? map_find(map, handle) : NULL;
  if (s) {
    putf("{\"e\":\"name\",\"%s\":%llu,\"name\":", map == &memories ? "memory" : "id", (unsigned long long)s->id);
    put_string(name);
    puts_("}\n");
  }
  hs_unlock();
}

static VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectNameEXT(VkDevice device,
                                                                 const VkDebugUtilsObjectNameInfoEXT *info) {
  Device *d = device_of(device);
  VkResult result = d->SetDebugUtilsObjectNameEXT(device, info);
  named(d, info->objectType, info->objectHandle, info->pObjectName);
  return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL DebugMarkerSetObjectNameEXT(VkDevice device,
                                                                  const VkDebugMarkerObjectNameInfoEXT *info) {
  Device *d = device_of(device);
  VkResult result = d->DebugMarkerSetObjectNameEXT(device, info);
  /* VkDebugReportObjectTypeEXT numbers buffers, images and memory as VkObjectType does */
  named(d, (VkObjectType)info->objectType, info->object, info->pObjectName);
  return result;
}

static const char *report_type_name(VkDeviceMemoryReportEventTypeEXT t) {
  switch (t) {
  case VK_DEVICE_MEMORY_REPORT_EVENT_TYPE_ALLOCATE_EXT: return "allocate";
  case VK_DEVICE_MEMORY_REPORT_EVENT_TYPE_FREE_EXT: return "free";
  case VK_DEVICE_MEMORY_REPORT_EVENT_TYPE_IMPORT_EXT: return "import";
  case VK_DEVICE_MEMORY_REPORT_EVENT_TYPE_UNIMPORT_EXT: return "unimport";
  case VK_DEVICE_MEMORY_REPORT_EVENT_TYPE_ALLOCATION_FAILED_EXT: return "allocation-failed";
  default: return "other";
  }
}

/* VK_EXT_device_memory_report: what the driver allocated, for the program or for itself. */
static VKAPI_ATTR void VKAPI_CALL memory_report(const VkDeviceMemoryReportCallbackDataEXT *data, void *user) {
  Device *d = user;
  hs_lock();
  if (d == recorded && g.headerWritten) {
    putf("{\"e\":\"report\",\"type\":\"%s\",\"memoryObjectId\":%llu,\"size\":%llu,\"objectType\":%u,\"heap\":%u",
         report_type_name(data->type), (unsigned long long)data->memoryObjectId, (unsigned long long)data->size,
         (unsigned)data->objectType, data->heapIndex);
    Map *map = data->objectType == VK_OBJECT_TYPE_BUFFER          ? &buffers
               : data->objectType == VK_OBJECT_TYPE_IMAGE         ? &images
               : data->objectType == VK_OBJECT_TYPE_DEVICE_MEMORY ? &memories
                                                                  : NULL;
    Slot *s = map ? map_find(map, data->objectHandle) : NULL;
    if (s) putf(",\"id\":%llu", (unsigned long long)s->id);
    puts_("}\n");
  }
  hs_unlock();
}

/* ---------------------------------------------------- device creation */

static bool has_extension(const char *const *names, uint32_t count, const char *name) {
  for (uint32_t i = 0; i < count; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
}

static const void *find_in_chain(const void *chain, VkStructureType type) {
  for (const VkBaseInStructure *s = chain; s; s = s->pNext)
    if (s->sType == type) return s;
  return NULL;
}

static PFN_vkVoidFunction device_proc(Device *d, const char *name) {
  return d->GetDeviceProcAddr(d->handle, name);
}

static VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
                                                   const VkAllocationCallbacks *allocator, VkDevice *device) {
  Instance *instance = instance_of(physical);
  VkLayerDeviceCreateInfo *chain = (VkLayerDeviceCreateInfo *)info->pNext;
  while (chain && !(chain->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && chain->function == VK_LAYER_LINK_INFO))
    chain = (VkLayerDeviceCreateInfo *)chain->pNext;
  if (!chain || !instance) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = chain->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr gdpa = chain->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  PFN_vkCreateDevice next = (PFN_vkCreateDevice)gipa(instance->handle, "vkCreateDevice");
  if (!next) return VK_ERROR_INITIALIZATION_FAILED;

  /* what the device offers: VK_EXT_memory_budget, VK_EXT_device_memory_report */
  bool budget = false, report = false;
  uint32_t available = 0;
  VkExtensionProperties *extensions = NULL;
  if (instance->EnumerateDeviceExtensionProperties &&
      instance->EnumerateDeviceExtensionProperties(physical, NULL, &available, NULL) == VK_SUCCESS) {
    extensions = calloc(available ? available : 1, sizeof *extensions);
    if (extensions && instance->EnumerateDeviceExtensionProperties(physical, NULL, &available, extensions) != VK_SUCCESS)
      available = 0;
  }
  for (uint32_t i = 0; extensions && i < available; i++) {
    if (!strcmp(extensions[i].extensionName, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME)) budget = true;
    if (!strcmp(extensions[i].extensionName, VK_EXT_DEVICE_MEMORY_REPORT_EXTENSION_NAME)) report = true;
  }
  free(extensions);
  budget = budget && instance->GetPhysicalDeviceMemoryProperties2;
  if (report && instance->GetPhysicalDeviceFeatures2) {
    VkPhysicalDeviceDeviceMemoryReportFeaturesEXT feature = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_MEMORY_REPORT_FEATURES_EXT, NULL, VK_FALSE};
    VkPhysicalDeviceFeatures2 features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &feature, {0}};
    instance->GetPhysicalDeviceFeatures2(physical, &features);
    report = feature.deviceMemoryReport == VK_TRUE;
  } else {
    report = false;
  }
  /* a program that enables the features in VkPhysicalDeviceFeatures2 itself is left as it is */
  if (report && find_in_chain(info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_MEMORY_REPORT_FEATURES_EXT))
    report = false;

  Device *d = calloc(1, sizeof *d);
  if (!d) return VK_ERROR_OUT_OF_HOST_MEMORY;

  VkDeviceCreateInfo modified = *info;
  const char **names = malloc(sizeof(char *) * (info->enabledExtensionCount + 2));
  if (!names) {
    free(d);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  uint32_t count = info->enabledExtensionCount;
  for (uint32_t i = 0; i < count; i++) names[i] = info->ppEnabledExtensionNames[i];
  if (budget && !has_extension(names, count, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME))
    names[count++] = VK_EXT_MEMORY_BUDGET_EXTENSION_NAME;
  if (report && !has_extension(names, count, VK_EXT_DEVICE_MEMORY_REPORT_EXTENSION_NAME))
    names[count++] = VK_EXT_DEVICE_MEMORY_REPORT_EXTENSION_NAME;
  modified.enabledExtensionCount = count;
  modified.ppEnabledExtensionNames = names;
  VkPhysicalDeviceDeviceMemoryReportFeaturesEXT reportFeature = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_MEMORY_REPORT_FEATURES_EXT, (void *)info->pNext, VK_TRUE};
  VkDeviceDeviceMemoryReportCreateInfoEXT reportCallback = {VK_STRUCTURE_TYPE_DEVICE_DEVICE_MEMORY_REPORT_CREATE_INFO_EXT,
                                                            &reportFeature, 0, memory_report, d};
  if (report) modified.pNext = &reportCallback;

  chain->u.pLayerInfo = chain->u.pLayerInfo->pNext;
  VkResult result = next(physical, &modified, allocator, device);
  free(names);
  if (result != VK_SUCCESS) {
    free(d);
    return result;
  }

  d->key = key_of(*device);
  d->handle = *device;
  d->physical = physical;
  d->instance = instance;
  d->GetDeviceProcAddr = gdpa;
  d->budget = budget;
  d->memoryReport = report;
  instance->GetPhysicalDeviceMemoryProperties(physical, &d->memory);
  VkPhysicalDeviceProperties properties;
  instance->GetPhysicalDeviceProperties(physical, &properties);
  bool core11 = properties.apiVersion >= VK_API_VERSION_1_1 && instance->apiVersion >= VK_API_VERSION_1_1;
  bool core13 = properties.apiVersion >= VK_API_VERSION_1_3 && instance->apiVersion >= VK_API_VERSION_1_3;
#define LOAD(field, name) d->field = (void *)device_proc(d, name)
  LOAD(DestroyDevice, "vkDestroyDevice");
  LOAD(AllocateMemory, "vkAllocateMemory");
  LOAD(FreeMemory, "vkFreeMemory");
  LOAD(MapMemory, "vkMapMemory");
  LOAD(UnmapMemory, "vkUnmapMemory");
  LOAD(FlushMappedMemoryRanges, "vkFlushMappedMemoryRanges");
  LOAD(CreateBuffer, "vkCreateBuffer");
  LOAD(DestroyBuffer, "vkDestroyBuffer");
  LOAD(CreateImage, "vkCreateImage");
  LOAD(DestroyImage, "vkDestroyImage");
  LOAD(BindBufferMemory, "vkBindBufferMemory");
  LOAD(BindImageMemory, "vkBindImageMemory");
  LOAD(BindBufferMemory2KHR, "vkBindBufferMemory2KHR");
  LOAD(BindImageMemory2KHR, "vkBindImageMemory2KHR");
  LOAD(GetBufferMemoryRequirements, "vkGetBufferMemoryRequirements");
  LOAD(GetImageMemoryRequirements, "vkGetImageMemoryRequirements");
  LOAD(QueueSubmit, "vkQueueSubmit");
  LOAD(QueueSubmit2KHR, "vkQueueSubmit2KHR");
  LOAD(QueuePresentKHR, "vkQueuePresentKHR");
  LOAD(CreateSwapchainKHR, "vkCreateSwapchainKHR");
  LOAD(DestroySwapchainKHR, "vkDestroySwapchainKHR");
  LOAD(GetSwapchainImagesKHR, "vkGetSwapchainImagesKHR");
  LOAD(SetDebugUtilsObjectNameEXT, "vkSetDebugUtilsObjectNameEXT");
  LOAD(DebugMarkerSetObjectNameEXT, "vkDebugMarkerSetObjectNameEXT");
  if (core11) {
    LOAD(BindBufferMemory2, "vkBindBufferMemory2");
    LOAD(BindImageMemory2, "vkBindImageMemory2");
    LOAD(GetBufferMemoryRequirements2, "vkGetBufferMemoryRequirements2");
    LOAD(GetImageMemoryRequirements2, "vkGetImageMemoryRequirements2");
  }
  if (core13) LOAD(QueueSubmit2, "vkQueueSubmit2");
  if (!d->GetBufferMemoryRequirements2 && has_extension(info->ppEnabledExtensionNames, info->enabledExtensionCount,
                                                        VK_KHR_GET_MEMORY_REQUIREMENTS_2_EXTENSION_NAME)) {
    LOAD(GetBufferMemoryRequirements2, "vkGetBufferMemoryRequirements2KHR");
    LOAD(GetImageMemoryRequirements2, "vkGetImageMemoryRequirements2KHR");
  }
#undef LOAD
  /* VkMemoryDedicatedRequirements needs VK_KHR_dedicated_allocation or 1.1 */
  if (!core11 && !has_extension(info->ppEnabledExtensionNames, info->enabledExtensionCount,
                                VK_KHR_DEDICATED_ALLOCATION_EXTENSION_NAME)) {
    d->GetBufferMemoryRequirements2 = NULL;
    d->GetImageMemoryRequirements2 = NULL;
  }

  VkPhysicalDeviceMemoryBudgetPropertiesEXT budgetNow;
  bool haveBudget = query_budget(d, &budgetNow);
  hs_lock();
  if (!list_add(&devices, d)) {
    hs_unlock();
    d->DestroyDevice(*device, allocator);
    free(d);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (!recorded) {
    recorded = d;
    d->recorded = true;
    if (!g.headerWritten) {
      write_header(d, haveBudget ? &budgetNow : NULL);
      if (haveBudget) {
        for (uint32_t h = 0; h < d->memory.memoryHeapCount; h++) {
          d->lastBudget[h] = budgetNow.heapBudget[h];
          d->lastUsage[h] = budgetNow.heapUsage[h];
        }
      }
      write_out();
    } else if (haveBudget) {
      put_budget_changes(d, &budgetNow);
    }
  }
  hs_unlock();
  return VK_SUCCESS;
}

/* --------------------------------------------------------- instance */

static VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance handle, const VkAllocationCallbacks *allocator) {
  Instance *instance = instance_of(handle);
  if (!instance) return;
  PFN_vkDestroyInstance next = instance->DestroyInstance;
  hs_lock();
  list_remove(&instances, instance);
  write_out();
  hs_unlock();
  free(instance);
  next(handle, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo *info,
                                                     const VkAllocationCallbacks *allocator, VkInstance *handle) {
  VkLayerInstanceCreateInfo *chain = (VkLayerInstanceCreateInfo *)info->pNext;
  while (chain &&
         !(chain->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && chain->function == VK_LAYER_LINK_INFO))
    chain = (VkLayerInstanceCreateInfo *)chain->pNext;
  if (!chain) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = chain->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkCreateInstance next = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
  if (!next) return VK_ERROR_INITIALIZATION_FAILED;

  hs_lock();
  configure();
  hs_unlock();

  uint32_t apiVersion = info->pApplicationInfo && info->pApplicationInfo->apiVersion
                            ? info->pApplicationInfo->apiVersion
                            : VK_API_VERSION_1_0;
  /* VK_EXT_memory_budget is read through vkGetPhysicalDeviceMemoryProperties2: Vulkan 1.1 or this extension */
  bool addProperties2 =
      apiVersion < VK_API_VERSION_1_1 && !has_extension(info->ppEnabledExtensionNames, info->enabledExtensionCount,
                                                        VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
  VkInstanceCreateInfo modified = *info;
  const char **names = malloc(sizeof(char *) * (info->enabledExtensionCount + 1));
  if (!names) return VK_ERROR_OUT_OF_HOST_MEMORY;
  for (uint32_t i = 0; i < info->enabledExtensionCount; i++) names[i] = info->ppEnabledExtensionNames[i];
  if (addProperties2) {
    names[info->enabledExtensionCount] = VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME;
    modified.enabledExtensionCount = info->enabledExtensionCount + 1;
    modified.ppEnabledExtensionNames = names;
  }
  VkLayerInstanceLink *link = chain->u.pLayerInfo;
  chain->u.pLayerInfo = link->pNext;
  VkResult result = next(&modified, allocator, handle);
  if (result == VK_ERROR_EXTENSION_NOT_PRESENT && addProperties2) {
    /* the driver lacks it: create the instance as the program asked, and do without the budget */
    chain->u.pLayerInfo = link->pNext;
    addProperties2 = false;
    result = next(info, allocator, handle);
  }
  free(names);
  if (result != VK_SUCCESS) return result;

  Instance *instance = calloc(1, sizeof *instance);
  if (!instance) return VK_ERROR_OUT_OF_HOST_MEMORY;
  instance->key = key_of(*handle);
  instance->handle = *handle;
  instance->apiVersion = apiVersion;
  instance->GetInstanceProcAddr = gipa;
  if (info->pApplicationInfo && info->pApplicationInfo->pApplicationName)
    snprintf(instance->appName, sizeof instance->appName, "%s", info->pApplicationInfo->pApplicationName);
#define LOAD(field, name) instance->field = (void *)gipa(*handle, name)
  LOAD(DestroyInstance, "vkDestroyInstance");
  LOAD(GetPhysicalDeviceProperties, "vkGetPhysicalDeviceProperties");
  LOAD(GetPhysicalDeviceMemoryProperties, "vkGetPhysicalDeviceMemoryProperties");
  LOAD(EnumerateDeviceExtensionProperties, "vkEnumerateDeviceExtensionProperties");
  if (apiVersion >= VK_API_VERSION_1_1) {
    LOAD(GetPhysicalDeviceMemoryProperties2, "vkGetPhysicalDeviceMemoryProperties2");
    LOAD(GetPhysicalDeviceFeatures2, "vkGetPhysicalDeviceFeatures2");
  } else if (addProperties2 || has_extension(info->ppEnabledExtensionNames, info->enabledExtensionCount,
                                             VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME)) {
    LOAD(GetPhysicalDeviceMemoryProperties2, "vkGetPhysicalDeviceMemoryProperties2KHR");
    LOAD(GetPhysicalDeviceFeatures2, "vkGetPhysicalDeviceFeatures2KHR");
  }
#undef LOAD
  hs_lock();
  bool stored = list_add(&instances, instance);
  static bool registered;
  if (!registered) {
    registered = true;
    atexit(at_exit);
  }
  hs_unlock();
  if (!stored) {
    instance->DestroyInstance(*handle, allocator);
    free(instance);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return VK_SUCCESS;
}

/* ---------------------------------------------------- proc addresses */

static PFN_vkVoidFunction device_intercept(const char *name, Device *d) {
  /* with d: only what the next layer or driver has; without (a lookup through the instance): everything */
#define HOOK(fn, field)                                                                                          \
  if (!strcmp(name, "vk" #fn)) return (!d || d->field) ? (PFN_vkVoidFunction)fn : NULL;
  HOOK(DestroyDevice, DestroyDevice)
  HOOK(AllocateMemory, AllocateMemory)
  HOOK(FreeMemory, FreeMemory)
  HOOK(MapMemory, MapMemory)
  HOOK(UnmapMemory, UnmapMemory)
  HOOK(FlushMappedMemoryRanges, FlushMappedMemoryRanges)
  HOOK(CreateBuffer, CreateBuffer)
  HOOK(DestroyBuffer, DestroyBuffer)
  HOOK(CreateImage, CreateImage)
  HOOK(DestroyImage, DestroyImage)
  HOOK(BindBufferMemory, BindBufferMemory)
  HOOK(BindImageMemory, BindImageMemory)
  HOOK(BindBufferMemory2, BindBufferMemory2)
  HOOK(BindBufferMemory2KHR, BindBufferMemory2KHR)
  HOOK(BindImageMemory2, BindImageMemory2)
  HOOK(BindImageMemory2KHR, BindImageMemory2KHR)
  HOOK(QueueSubmit, QueueSubmit)
  HOOK(QueueSubmit2, QueueSubmit2)
  HOOK(QueueSubmit2KHR, QueueSubmit2KHR)
  HOOK(QueuePresentKHR, QueuePresentKHR)
  HOOK(CreateSwapchainKHR, CreateSwapchainKHR)
  HOOK(DestroySwapchainKHR, DestroySwapchainKHR)
  HOOK(GetSwapchainImagesKHR, GetSwapchainImagesKHR)
  HOOK(SetDebugUtilsObjectNameEXT, SetDebugUtilsObjectNameEXT)
  HOOK(DebugMarkerSetObjectNameEXT, DebugMarkerSetObjectNameEXT)
#undef HOOK
  return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char *name);

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance handle, const char *name) {
  if (!strcmp(name, "vkGetInstanceProcAddr")) return (PFN_vkVoidFunction)GetInstanceProcAddr;
  if (!strcmp(name, "vkCreateInstance")) return (PFN_vkVoidFunction)CreateInstance;
  if (!strcmp(name, "vkDestroyInstance")) return (PFN_vkVoidFunction)DestroyInstance;
  if (!strcmp(name, "vkCreateDevice")) return (PFN_vkVoidFunction)CreateDevice;
  if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)GetDeviceProcAddr;
  if (!handle) return NULL;
  Instance *instance = instance_of(handle);
  if (!instance) return NULL;
  PFN_vkVoidFunction own = device_intercept(name, NULL);
  PFN_vkVoidFunction next = instance->GetInstanceProcAddr(handle, name);
  return own && next ? own : next;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char *name) {
  if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)GetDeviceProcAddr;
  Device *d = device_of(device);
  if (!d) return NULL;
  PFN_vkVoidFunction own = device_intercept(name, d);
  return own ? own : d->GetDeviceProcAddr(device, name);
}

HS_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *version) {
  if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  if (version->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  version->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = NULL;
  return VK_SUCCESS;
}
