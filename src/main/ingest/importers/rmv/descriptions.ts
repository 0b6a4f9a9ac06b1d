/**
 * Resource descriptions: the payload after the 7-byte RESOURCE_CREATE header, one layout per resource type.
 * Bit ranges are relative to the payload's first byte, as the RMT format numbers them.
 */
import { bitField as bits, bitFieldHex } from './bytes'
import { rmtFormatName } from './formats'
import { RMV_PAGE_SIZES, type RmvImageDim, type RmvResourceDescription, type RmvResourceType } from './types'

export const CREATE_HEADER_SIZE = 7

/**
 * Payload size in bytes for a resource type, or -1 for a type the format does not define. `pos` is the token's
 * first byte; the descriptor pool's size depends on its pool count, which the caller has checked is readable.
 */
export function descriptionSize(type: number, version: number, bytes: Uint8Array, pos: number): number {
  switch (type) {
    case 0:
      // Images grew by one byte at format 1.6 (one more bit per dimension).
      return version >= 16 ? 39 : 38
    case 1:
      return 11
    case 2:
    case 3:
    case 7:
    case 16:
      return 1
    case 4:
    case 5:
    case 10:
      return 0
    case 6:
      return 12
    case 8:
    case 13:
      return 4
    case 9:
      return 6
    case 11:
      return 10
    case 12:
      return 19
    case 14:
      return 3 + 4 * bytes[pos + CREATE_HEADER_SIZE + 2]
    case 15:
      return 44
    case 17:
      return 17
    default:
      return -1
  }
}

const log2Bytes = (code: number): number => 2 ** code

export function readDescription(type: RmvResourceType, version: number, b: Uint8Array, p: number): RmvResourceDescription {
  switch (type) {
    case 'image': {
      const wide = version >= 16
      // From format 1.6 each dimension has 14 bits instead of 13: every later field moves by 3 bits.
      const dimBits = wide ? 14 : 13
      const s = wide ? 3 : 0
      const format = bits(b, p, 95 + s, 76 + s)
      const imageType = bits(b, p, 36, 35)
      return {
        type,
        createFlags: bits(b, p, 19, 0),
        usageFlags: bits(b, p, 34, 20),
        dim: (['1d', '2d', '3d', 'reserved'] as RmvImageDim[])[imageType],
        width: bits(b, p, 37 + dimBits - 1, 37) + 1,
        height: bits(b, p, 37 + 2 * dimBits - 1, 37 + dimBits) + 1,
        depth: bits(b, p, 37 + 3 * dimBits - 1, 37 + 2 * dimBits) + 1,
        format: Math.floor(format / 4096),
        formatName: rmtFormatName(Math.floor(format / 4096)),
        swizzle: [format & 7, (format >> 3) & 7, (format >> 6) & 7, (format >> 9) & 7],
        mips: bits(b, p, 99 + s, 96 + s),
        slices: bits(b, p, 110 + s, 100 + s) + 1,
        samples: 2 ** bits(b, p, 113 + s, 111 + s),
        fragments: 2 ** bits(b, p, 115 + s, 114 + s),
        tiling: bits(b, p, 117 + s, 116 + s),
        tilingOptimization: bits(b, p, 119 + s, 118 + s),
        metadataMode: bits(b, p, 121 + s, 120 + s),
        maxBaseAlignment: log2Bytes(bits(b, p, 126 + s, 122 + s)),
        presentable: bits(b, p, 127 + s, 127 + s) === 1,
        imageSize: bits(b, p, 159 + s, 128 + s),
        metadataTailOffset: bits(b, p, 191 + s, 160 + s),
        metadataTailSize: bits(b, p, 223 + s, 192 + s),
        metadataHeadOffset: bits(b, p, 255 + s, 224 + s),
        metadataHeadSize: bits(b, p, 287 + s, 256 + s),
        imageAlignment: log2Bytes(bits(b, p, 292 + s, 288 + s)),
        metadataTailAlignment: log2Bytes(bits(b, p, 297 + s, 293 + s)),
        metadataHeadAlignment: log2Bytes(bits(b, p, 302 + s, 298 + s)),
        fullscreen: bits(b, p, 303 + s, 303 + s) === 1,
      }
    }
    case 'buffer':
      return { type, createFlags: bits(b, p, 7, 0), usageFlags: bits(b, p, 23, 8), size: bits(b, p, 87, 24) }
    case 'gpuEvent':
      return { type, flags: b[p] }
    case 'borderColorPalette':
      return { type, entries: b[p] }
    case 'perfExperiment':
      return { type, spmSize: bits(b, p, 31, 0), sqttSize: bits(b, p, 63, 32), counterSize: bits(b, p, 95, 64) }
    case 'queryHeap':
      return { type, heapType: bits(b, p, 1, 0), cpuAccess: bits(b, p, 2, 2) === 1 }
    case 'videoDecoder':
      return {
        type,
        engineType: bits(b, p, 3, 0),
        decoderType: bits(b, p, 7, 4),
        width: bits(b, p, 19, 8) + 1,
        height: bits(b, p, 31, 20) + 1,
      }
    case 'videoEncoder':
      return {
        type,
        engineType: bits(b, p, 3, 0),
        encoderType: bits(b, p, 4, 4),
        width: bits(b, p, 16, 5) + 1,
        height: bits(b, p, 28, 17) + 1,
        format: bits(b, p, 47, 41),
      }
    case 'heap':
      return {
        type,
        flags: bits(b, p, 4, 0),
        size: bits(b, p, 68, 5),
        alignment: RMV_PAGE_SIZES[bits(b, p, 73, 69) & 7],
        segmentIndex: bits(b, p, 77, 74),
      }
    case 'pipeline':
      return {
        type,
        createFlags: bits(b, p, 7, 0),
        hash: bitFieldHex(b, p, 71, 8) + bitFieldHex(b, p, 135, 72),
        stageMask: bits(b, p, 143, 136),
        ngg: bits(b, p, 144, 144) === 1,
      }
    case 'descriptorHeap':
      return {
        type,
        descriptorType: bits(b, p, 3, 0),
        shaderVisible: bits(b, p, 4, 4) === 1,
        gpuMask: bits(b, p, 12, 5),
        descriptors: bits(b, p, 28, 13),
      }
    case 'descriptorPool': {
      const count = b[p + 2]
      const pools: { descriptorType: number; descriptors: number }[] = []
      for (let i = 0; i < count; i++) {
        const q = p + 3 + 4 * i
        pools.push({ descriptorType: bits(b, q, 15, 0), descriptors: bits(b, q, 31, 16) })
      }
      return { type, maxSets: bits(b, p, 15, 0), pools }
    }
    case 'commandAllocator':
      return {
        type,
        flags: bits(b, p, 3, 0),
        cmdDataHeap: bits(b, p, 7, 4),
        cmdDataSize: bits(b, p, 63, 8),
        cmdDataSuballocSize: bits(b, p, 119, 64),
        embeddedDataHeap: bits(b, p, 123, 120),
        embeddedDataSize: bits(b, p, 179, 124),
        embeddedDataSuballocSize: bits(b, p, 235, 180),
        gpuScratchHeap: bits(b, p, 239, 236),
        gpuScratchSize: bits(b, p, 295, 240),
        gpuScratchSuballocSize: bits(b, p, 351, 296),
      }
    case 'miscInternal':
      return { type, internalType: b[p] }
    case 'workGraph':
      return { type, createFlags: bits(b, p, 7, 0), hash: bitFieldHex(b, p, 135, 8) }
    case 'indirectCmdGenerator':
    case 'motionEstimator':
    case 'timestamp':
      return { type }
  }
}
