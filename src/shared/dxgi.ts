/**
 * DXGI formats: the enum value (as D3D12 descs in foreign captures carry it), and the bits of one element,
 * where an element is a texel, or a 4×4 block for block-compressed formats. Names are without `DXGI_FORMAT_`.
 */
export interface DxgiFormatInfo {
  name: string
  value: number
  /** Bits per texel, or per 4×4 block when `block` is 4. 0 for UNKNOWN. */
  bits: number
  /** Texels per block edge: 4 for BC formats, 1 otherwise. */
  block: 1 | 4
  /** Planar video formats (NV12, P010, …) that can never be 4 KiB aligned. */
  video?: boolean
  depth?: boolean
}

const F = (value: number, name: string, bits: number, extra: Partial<DxgiFormatInfo> = {}): DxgiFormatInfo => ({
  name,
  value,
  bits,
  block: 1,
  ...extra,
})
const BC = (value: number, name: string, bits: 64 | 128): DxgiFormatInfo => ({ name, value, bits, block: 4 })

export const DXGI_FORMATS: readonly DxgiFormatInfo[] = [
  F(0, 'UNKNOWN', 0),
  F(1, 'R32G32B32A32_TYPELESS', 128),
  F(2, 'R32G32B32A32_FLOAT', 128),
  F(3, 'R32G32B32A32_UINT', 128),
  F(4, 'R32G32B32A32_SINT', 128),
  F(5, 'R32G32B32_TYPELESS', 96),
  F(6, 'R32G32B32_FLOAT', 96),
  F(7, 'R32G32B32_UINT', 96),
  F(8, 'R32G32B32_SINT', 96),
  F(9, 'R16G16B16A16_TYPELESS', 64),
  F(10, 'R16G16B16A16_FLOAT', 64),
  F(11, 'R16G16B16A16_UNORM', 64),
  F(12, 'R16G16B16A16_UINT', 64),
  F(13, 'R16G16B16A16_SNORM', 64),
  F(14, 'R16G16B16A16_SINT', 64),
  F(15, 'R32G32_TYPELESS', 64),
  F(16, 'R32G32_FLOAT', 64),
  F(17, 'R32G32_UINT', 64),
  F(18, 'R32G32_SINT', 64),
  F(19, 'R32G8X24_TYPELESS', 64, { depth: true }),
  F(20, 'D32_FLOAT_S8X24_UINT', 64, { depth: true }),
  F(21, 'R32_FLOAT_X8X24_TYPELESS', 64),
  F(22, 'X32_TYPELESS_G8X24_UINT', 64),
  F(23, 'R10G10B10A2_TYPELESS', 32),
  F(24, 'R10G10B10A2_UNORM', 32),
  F(25, 'R10G10B10A2_UINT', 32),
  F(26, 'R11G11B10_FLOAT', 32),
  F(27, 'R8G8B8A8_TYPELESS', 32),
  F(28, 'R8G8B8A8_UNORM', 32),
  F(29, 'R8G8B8A8_UNORM_SRGB', 32),
  F(30, 'R8G8B8A8_UINT', 32),
  F(31, 'R8G8B8A8_SNORM', 32),
  F(32, 'R8G8B8A8_SINT', 32),
  F(33, 'R16G16_TYPELESS', 32),
  F(34, 'R16G16_FLOAT', 32),
  F(35, 'R16G16_UNORM', 32),
  F(36, 'R16G16_UINT', 32),
  F(37, 'R16G16_SNORM', 32),
  F(38, 'R16G16_SINT', 32),
  F(39, 'R32_TYPELESS', 32),
  F(40, 'D32_FLOAT', 32, { depth: true }),
  F(41, 'R32_FLOAT', 32),
  F(42, 'R32_UINT', 32),
  F(43, 'R32_SINT', 32),
  F(44, 'R24G8_TYPELESS', 32, { depth: true }),
  F(45, 'D24_UNORM_S8_UINT', 32, { depth: true }),
  F(46, 'R24_UNORM_X8_TYPELESS', 32),
  F(47, 'X24_TYPELESS_G8_UINT', 32),
  F(48, 'R8G8_TYPELESS', 16),
  F(49, 'R8G8_UNORM', 16),
  F(50, 'R8G8_UINT', 16),
  F(51, 'R8G8_SNORM', 16),
  F(52, 'R8G8_SINT', 16),
  F(53, 'R16_TYPELESS', 16),
  F(54, 'R16_FLOAT', 16),
  F(55, 'D16_UNORM', 16, { depth: true }),
  F(56, 'R16_UNORM', 16),
  F(57, 'R16_UINT', 16),
  F(58, 'R16_SNORM', 16),
  F(59, 'R16_SINT', 16),
  F(60, 'R8_TYPELESS', 8),
  F(61, 'R8_UNORM', 8),
  F(62, 'R8_UINT', 8),
  F(63, 'R8_SNORM', 8),
  F(64, 'R8_SINT', 8),
  F(65, 'A8_UNORM', 8),
  F(66, 'R1_UNORM', 1),
  F(67, 'R9G9B9E5_SHAREDEXP', 32),
  F(68, 'R8G8_B8G8_UNORM', 32),
  F(69, 'G8R8_G8B8_UNORM', 32),
  BC(70, 'BC1_TYPELESS', 64),
  BC(71, 'BC1_UNORM', 64),
  BC(72, 'BC1_UNORM_SRGB', 64),
  BC(73, 'BC2_TYPELESS', 128),
  BC(74, 'BC2_UNORM', 128),
  BC(75, 'BC2_UNORM_SRGB', 128),
  BC(76, 'BC3_TYPELESS', 128),
  BC(77, 'BC3_UNORM', 128),
  BC(78, 'BC3_UNORM_SRGB', 128),
  BC(79, 'BC4_TYPELESS', 64),
  BC(80, 'BC4_UNORM', 64),
  BC(81, 'BC4_SNORM', 64),
  BC(82, 'BC5_TYPELESS', 128),
  BC(83, 'BC5_UNORM', 128),
  BC(84, 'BC5_SNORM', 128),
  F(85, 'B5G6R5_UNORM', 16),
  F(86, 'B5G5R5A1_UNORM', 16),
  F(87, 'B8G8R8A8_UNORM', 32),
  F(88, 'B8G8R8X8_UNORM', 32),
  F(89, 'R10G10B10_XR_BIAS_A2_UNORM', 32),
  F(90, 'B8G8R8A8_TYPELESS', 32),
  F(91, 'B8G8R8A8_UNORM_SRGB', 32),
  F(92, 'B8G8R8X8_TYPELESS', 32),
  F(93, 'B8G8R8X8_UNORM_SRGB', 32),
  BC(94, 'BC6H_TYPELESS', 128),
  BC(95, 'BC6H_UF16', 128),
  BC(96, 'BC6H_SF16', 128),
  BC(97, 'BC7_TYPELESS', 128),
  BC(98, 'BC7_UNORM', 128),
  BC(99, 'BC7_UNORM_SRGB', 128),
  F(100, 'AYUV', 32, { video: true }),
  F(101, 'Y410', 32, { video: true }),
  F(102, 'Y416', 64, { video: true }),
  F(103, 'NV12', 8, { video: true }),
  F(104, 'P010', 16, { video: true }),
  F(105, 'P016', 16, { video: true }),
  F(106, '420_OPAQUE', 8, { video: true }),
  F(107, 'YUY2', 32, { video: true }),
  F(108, 'Y210', 64, { video: true }),
  F(109, 'Y216', 64, { video: true }),
  F(110, 'NV11', 8, { video: true }),
  F(111, 'AI44', 8, { video: true }),
  F(112, 'IA44', 8, { video: true }),
  F(113, 'P8', 8),
  F(114, 'A8P8', 16),
  F(115, 'B4G4R4A4_UNORM', 16),
  F(130, 'P208', 8, { video: true }),
  F(131, 'V208', 8, { video: true }),
  F(132, 'V408', 8, { video: true }),
  F(189, 'SAMPLER_FEEDBACK_MIN_MIP_OPAQUE', 8),
  F(190, 'SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE', 8),
  F(191, 'A4B4G4R4_UNORM', 16),
]

const BY_NAME = new Map(DXGI_FORMATS.map((f) => [f.name, f]))
const BY_VALUE = new Map(DXGI_FORMATS.map((f) => [f.value, f]))

/** Look a format up by name, with or without the `DXGI_FORMAT_` prefix. */
export function dxgiFormat(name: string | undefined): DxgiFormatInfo | undefined {
  if (!name) return undefined
  return BY_NAME.get(name.startsWith('DXGI_FORMAT_') ? name.slice(12) : name)
}

export function dxgiFormatByValue(value: number): DxgiFormatInfo | undefined {
  return BY_VALUE.get(value)
}
