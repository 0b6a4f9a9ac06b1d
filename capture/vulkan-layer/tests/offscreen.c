/*
 * heapscope-offscreen: a small Vulkan program with no window, for recording under the capture layer where no
 * display exists (CI, headless GPUs). It sub-allocates buffers from one memory allocation at non-zero offsets,
 * makes a dedicated image, names objects (one twice), maps and flushes, frees a buffer part way, and submits one
 * empty command buffer per frame. With THREADS, that many threads also each make, bind, name and destroy a batch of
 * buffers in one shared allocation every frame, all at once, to exercise a layer's locking.
 *
 *   heapscope-offscreen [FRAMES] [MS_PER_FRAME] [THREADS]     (defaults: 60 frames, no pause, no threads)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#ifdef _WIN32
#include <windows.h>
static void pause_ms(unsigned ms) { Sleep(ms); }
typedef HANDLE thread_t;
static DWORD WINAPI thread_entry(LPVOID arg);
static void thread_start(thread_t *t, void *arg) { *t = CreateThread(NULL, 0, thread_entry, arg, 0, NULL); }
static void thread_join(thread_t t) {
  WaitForSingleObject(t, INFINITE);
  CloseHandle(t);
}
#else
#include <pthread.h>
#include <time.h>
static void pause_ms(unsigned ms) {
  struct timespec t = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}
typedef pthread_t thread_t;
static void *thread_entry(void *arg);
static void thread_start(thread_t *t, void *arg) { pthread_create(t, NULL, thread_entry, arg); }
static void thread_join(thread_t t) { pthread_join(t, NULL); }
#endif

#define CHECK(call)                                                                                               \
  do {                                                                                                            \
    VkResult r_ = (call);                                                                                         \
    if (r_ != VK_SUCCESS) {                                                                                       \
      fprintf(stderr, "heapscope-offscreen: %s failed (%d)\n", #call, (int)r_);                                    \
      exit(1);                                                                                                    \
    }                                                                                                             \
  } while (0)

static VkInstance instance;
static VkDevice device;
static PFN_vkSetDebugUtilsObjectNameEXT setName;

static void name(VkObjectType type, uint64_t handle, const char *text) {
  if (!setName) return;
  VkDebugUtilsObjectNameInfoEXT info = {VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, NULL, type, handle, text};
  setName(device, &info);
}

static uint32_t find_type(const VkPhysicalDeviceMemoryProperties *m, uint32_t bits, VkMemoryPropertyFlags want) {
  for (uint32_t t = 0; t < m->memoryTypeCount; t++)
    if ((bits & (1u << t)) && (m->memoryTypes[t].propertyFlags & want) == want) return t;
  for (uint32_t t = 0; t < m->memoryTypeCount; t++)
    if (bits & (1u << t)) return t;
  fprintf(stderr, "heapscope-offscreen: no memory type for bits %#x\n", bits);
  exit(1);
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

#define BATCH 50

/* One thread's work in a frame: BATCH buffers bound side by side in one allocation of its own, named, destroyed. */
typedef struct {
  int thread, frame;
  const VkPhysicalDeviceMemoryProperties *memory;
} Batch;

static void run_batch(const Batch *b) {
  VkBuffer buffers[BATCH];
  VkDeviceSize offsets[BATCH], end = 0;
  uint32_t bits = ~0u;
  for (int i = 0; i < BATCH; i++) {
    VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, 256 + 64 * (VkDeviceSize)i,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_SHARING_MODE_EXCLUSIVE, 0, NULL};
    CHECK(vkCreateBuffer(device, &info, NULL, &buffers[i]));
    VkMemoryRequirements r;
    vkGetBufferMemoryRequirements(device, buffers[i], &r);
    offsets[i] = align_up(end, r.alignment);
    end = offsets[i] + r.size;
    bits &= r.memoryTypeBits;
  }
  VkMemoryAllocateInfo allocation = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, end,
                                     find_type(b->memory, bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
  VkDeviceMemory memory;
  CHECK(vkAllocateMemory(device, &allocation, NULL, &memory));
  for (int i = 0; i < BATCH; i++) {
    CHECK(vkBindBufferMemory(device, buffers[i], memory, offsets[i]));
    char text[64];
    snprintf(text, sizeof text, "Thread%d.Frame%d.Buffer%d", b->thread, b->frame, i);
    name(VK_OBJECT_TYPE_BUFFER, (uint64_t)buffers[i], text);
  }
  for (int i = 0; i < BATCH; i++) vkDestroyBuffer(device, buffers[i], NULL);
  vkFreeMemory(device, memory, NULL);
}

#ifdef _WIN32
static DWORD WINAPI thread_entry(LPVOID arg) {
  run_batch(arg);
  return 0;
}
#else
static void *thread_entry(void *arg) {
  run_batch(arg);
  return NULL;
}
#endif

int main(int argc, char **argv) {
  int frames = argc > 1 ? atoi(argv[1]) : 60;
  unsigned pause = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
  int threads = argc > 3 ? atoi(argv[3]) : 0;
  if (threads < 0 || threads > 64) threads = 0;

  /* VK_EXT_debug_utils where the loader offers it */
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(NULL, &count, NULL);
  VkExtensionProperties *extensions = calloc(count ? count : 1, sizeof *extensions);
  vkEnumerateInstanceExtensionProperties(NULL, &count, extensions);
  const char *instanceExtensions[1];
  uint32_t instanceExtensionCount = 0;
  for (uint32_t i = 0; i < count; i++)
    if (!strcmp(extensions[i].extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
      instanceExtensions[instanceExtensionCount++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  free(extensions);

  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "heapscope-offscreen", 1, NULL, 0,
                           VK_API_VERSION_1_1};
  VkInstanceCreateInfo instanceInfo = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL,
                                       instanceExtensionCount, instanceExtensions};
  CHECK(vkCreateInstance(&instanceInfo, NULL, &instance));

  uint32_t physicalCount = 1;
  VkPhysicalDevice physical;
  VkResult enumerated = vkEnumeratePhysicalDevices(instance, &physicalCount, &physical);
  if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || physicalCount == 0) {
    fprintf(stderr, "heapscope-offscreen: no Vulkan device\n");
    return 1;
  }
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical, &properties);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, NULL);
  VkQueueFamilyProperties *families = calloc(familyCount, sizeof *families);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, families);
  uint32_t family = 0;
  for (uint32_t i = 0; i < familyCount; i++)
    if (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
      family = i;
      break;
    }
  free(families);

  /* VK_EXT_memory_priority where the device has it */
  uint32_t deviceExtensionCount = 0;
  vkEnumerateDeviceExtensionProperties(physical, NULL, &deviceExtensionCount, NULL);
  VkExtensionProperties *deviceExtensions = calloc(deviceExtensionCount ? deviceExtensionCount : 1, sizeof *deviceExtensions);
  vkEnumerateDeviceExtensionProperties(physical, NULL, &deviceExtensionCount, deviceExtensions);
  int priority = 0;
  for (uint32_t i = 0; i < deviceExtensionCount; i++)
    if (!strcmp(deviceExtensions[i].extensionName, VK_EXT_MEMORY_PRIORITY_EXTENSION_NAME)) priority = 1;
  free(deviceExtensions);
  const char *enabled[] = {VK_EXT_MEMORY_PRIORITY_EXTENSION_NAME};
  VkPhysicalDeviceMemoryPriorityFeaturesEXT priorityFeature = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT, NULL, VK_TRUE};

  float queuePriority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, family, 1, &queuePriority};
  VkDeviceCreateInfo deviceInfo = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, priority ? &priorityFeature : NULL, 0, 1,
                                   &queueInfo, 0, NULL, priority ? 1u : 0u, enabled, NULL};
  CHECK(vkCreateDevice(physical, &deviceInfo, NULL, &device));
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);
  if (instanceExtensionCount)
    setName = (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(device, "vkSetDebugUtilsObjectNameEXT");
  printf("heapscope-offscreen: %s, %u memory types over %u heaps, %d frames\n", properties.deviceName,
         memory.memoryTypeCount, memory.memoryHeapCount, frames);

  /* three vertex/index/uniform buffers sub-allocated from one host-visible allocation */
  const VkDeviceSize sizes[3] = {65536, 16384, 256};
  const VkBufferUsageFlags usages[3] = {VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                        VK_BUFFER_USAGE_INDEX_BUFFER_BIT, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT};
  const char *names[3] = {"Mesh.VB", "Mesh.IB", "Frame.UBO"};
  VkBuffer buffers[3];
  VkDeviceSize offsets[3], end = 0;
  uint32_t bits = ~0u;
  for (int i = 0; i < 3; i++) {
    VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, sizes[i], usages[i],
                               VK_SHARING_MODE_EXCLUSIVE, 0, NULL};
    CHECK(vkCreateBuffer(device, &info, NULL, &buffers[i]));
    VkMemoryRequirements r;
    vkGetBufferMemoryRequirements(device, buffers[i], &r);
    offsets[i] = align_up(end, r.alignment);
    end = offsets[i] + r.size;
    bits &= r.memoryTypeBits;
    name(VK_OBJECT_TYPE_BUFFER, (uint64_t)buffers[i], names[i]);
  }
  VkMemoryAllocateInfo shared = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, align_up(end, 65536),
                                 find_type(&memory, bits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)};
  VkDeviceMemory block;
  CHECK(vkAllocateMemory(device, &shared, NULL, &block));
  name(VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)block, "BufferBlock");
  CHECK(vkBindBufferMemory(device, buffers[0], block, offsets[0]));
  VkBindBufferMemoryInfo binds[2] = {
      {VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, NULL, buffers[1], block, offsets[1]},
      {VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, NULL, buffers[2], block, offsets[2]},
  };
  CHECK(vkBindBufferMemory2(device, 2, binds));
  int coherent = (memory.memoryTypes[shared.memoryTypeIndex].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;

  /* a render target in memory of its own, dedicated, with a priority where the device has them */
  VkImageCreateInfo imageInfo = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                                 NULL,
                                 0,
                                 VK_IMAGE_TYPE_2D,
                                 VK_FORMAT_R8G8B8A8_UNORM,
                                 {256, 256, 1},
                                 1,
                                 1,
                                 VK_SAMPLE_COUNT_1_BIT,
                                 VK_IMAGE_TILING_OPTIMAL,
                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                                 VK_SHARING_MODE_EXCLUSIVE,
                                 0,
                                 NULL,
                                 VK_IMAGE_LAYOUT_UNDEFINED};
  VkImage target;
  CHECK(vkCreateImage(device, &imageInfo, NULL, &target));
  name(VK_OBJECT_TYPE_IMAGE, (uint64_t)target, "SceneColor");
  VkMemoryRequirements imageRequirements;
  vkGetImageMemoryRequirements(device, target, &imageRequirements);
  VkMemoryPriorityAllocateInfoEXT priorityInfo = {VK_STRUCTURE_TYPE_MEMORY_PRIORITY_ALLOCATE_INFO_EXT, NULL, 0.75f};
  VkMemoryDedicatedAllocateInfo dedicated = {VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
                                             priority ? &priorityInfo : NULL, target, VK_NULL_HANDLE};
  VkMemoryAllocateInfo imageAllocation = {
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &dedicated, imageRequirements.size,
      find_type(&memory, imageRequirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
  VkDeviceMemory imageMemory;
  CHECK(vkAllocateMemory(device, &imageAllocation, NULL, &imageMemory));
  CHECK(vkBindImageMemory(device, target, imageMemory, 0));

  VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, family};
  VkCommandPool pool;
  CHECK(vkCreateCommandPool(device, &poolInfo, NULL, &pool));
  VkCommandBufferAllocateInfo commandInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                             VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer commands;
  CHECK(vkAllocateCommandBuffers(device, &commandInfo, &commands));
  VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL, 0, NULL};
  CHECK(vkBeginCommandBuffer(commands, &begin));
  CHECK(vkEndCommandBuffer(commands));
  VkFenceCreateInfo fenceInfo = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
  VkFence fence;
  CHECK(vkCreateFence(device, &fenceInfo, NULL, &fence));

  VkBuffer staging = VK_NULL_HANDLE;
  VkDeviceMemory stagingMemory = VK_NULL_HANDLE;
  for (int f = 0; f < frames; f++) {
    /* the uniform buffer is written each frame through a mapping of its range */
    void *data;
    VkDeviceSize atom = properties.limits.nonCoherentAtomSize;
    VkDeviceSize mapOffset = offsets[2] / atom * atom;
    CHECK(vkMapMemory(device, block, mapOffset, VK_WHOLE_SIZE, 0, &data));
    memset((char *)data + (offsets[2] - mapOffset), f & 0xff, (size_t)sizes[2]);
    if (!coherent) {
      VkMappedMemoryRange range = {VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, NULL, block, mapOffset, VK_WHOLE_SIZE};
      CHECK(vkFlushMappedMemoryRanges(device, 1, &range));
    }
    vkUnmapMemory(device, block);

    if (f == frames / 3) {
      /* a staging buffer for a while, then renamed, then gone */
      VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, 1 << 20,
                                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VK_SHARING_MODE_EXCLUSIVE, 0, NULL};
      CHECK(vkCreateBuffer(device, &info, NULL, &staging));
      name(VK_OBJECT_TYPE_BUFFER, (uint64_t)staging, "Upload.Staging");
      VkMemoryRequirements r;
      vkGetBufferMemoryRequirements(device, staging, &r);
      VkMemoryAllocateInfo allocation = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, r.size,
                                         find_type(&memory, r.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)};
      CHECK(vkAllocateMemory(device, &allocation, NULL, &stagingMemory));
      CHECK(vkBindBufferMemory(device, staging, stagingMemory, 0));
    }
    if (f == frames / 2 && staging) name(VK_OBJECT_TYPE_BUFFER, (uint64_t)staging, "Upload.Staging.Retired");
    if (f == 2 * frames / 3 && staging) {
      vkDestroyBuffer(device, staging, NULL);
      vkFreeMemory(device, stagingMemory, NULL);
      staging = VK_NULL_HANDLE;
    }

    if (threads) {
      thread_t workers[64];
      Batch batches[64];
      for (int t = 0; t < threads; t++) {
        batches[t] = (Batch){t, f, &memory};
        thread_start(&workers[t], &batches[t]);
      }
      for (int t = 0; t < threads; t++) thread_join(workers[t]);
    }

    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &commands, 0, NULL};
    CHECK(vkQueueSubmit(queue, 1, &submit, fence));
    CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
    CHECK(vkResetFences(device, 1, &fence));
    if (pause) pause_ms(pause);
  }

  if (staging) {
    vkDestroyBuffer(device, staging, NULL);
    vkFreeMemory(device, stagingMemory, NULL);
  }
  vkDestroyFence(device, fence, NULL);
  vkDestroyCommandPool(device, pool, NULL);
  vkDestroyImage(device, target, NULL);
  vkFreeMemory(device, imageMemory, NULL);
  for (int i = 0; i < 3; i++) vkDestroyBuffer(device, buffers[i], NULL);
  vkFreeMemory(device, block, NULL);
  vkDestroyDevice(device, NULL);
  vkDestroyInstance(instance, NULL);
  return 0;
}
