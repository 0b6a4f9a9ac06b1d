declare module 'lz4js' {
  /** Compresses src[sIndex, sIndex + sLength) into dst as one LZ4 block; 0 when it found nothing to compress. */
  export function compressBlock(src: Uint8Array, dst: Uint8Array, sIndex: number, sLength: number, hashTable: Uint32Array): number
}
