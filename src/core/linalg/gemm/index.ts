/** Dense matrix products (gemm.ts and the paths behind it); the module's public entry points. */
export {
  gemm,
  gemmPacked,
  gemmStrided,
  matmul,
  matmulTA,
  matmulTB,
  syrk,
  type GemmOptions,
} from './gemm';
export { packLhs, type PackedLhs, type Strided } from './layout';
export { thinFactor, thinNN, thinTA, type ThinFactor } from './thin';
export { gemmBackend, setGemmBackend, type GemmBackend } from './wasm';
