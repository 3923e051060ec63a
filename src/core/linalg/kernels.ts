/**
 * The narrow kernel interface every solver calls for dense and sparse products and small dense
 * decompositions; a faster backend (WASM SIMD, threads) can replace the modules behind it
 * without touching a caller. Shapes are in the names: `matmul` is C = A·B, `matmulTA` is
 * C = Aᵀ·B, `matmulTB` is C = A·Bᵀ, `syrk` is C = AᵀA; `out`, when given, must have the
 * result's shape and must not share memory with an input, and is overwritten, so iteration
 * loops allocate once.
 *
 * - gemm/: GEMM over packed panels, `syrk`, on a WebAssembly SIMD micro-kernel (wasm/gemm.wat),
 *   with one plain TypeScript loop where WebAssembly SIMD is missing (and as the tests' oracle).
 * - sparse.ts: CSR × dense, four dense columns at a time; the CSR transpose.
 * - eig.ts: symmetric eigendecomposition (Householder tridiagonalisation + implicit QL).
 * - qr.ts: Householder QR (blocked LQ of the transpose).
 * - svd.ts: thin SVD (QR + one-sided Jacobi) and orthogonal Procrustes.
 * - dense.ts: vector helpers and the transpose.
 * - polar.ts: the polar factor (Procrustes) of a thin or wide matrix from its Gram matrix.
 */
export { dot, nrm2, transposeInto } from './dense';
export {
  gemm,
  gemmPacked,
  matmul,
  matmulTA,
  matmulTB,
  packLhs,
  syrk,
  thinFactor,
  thinNN,
  thinTA,
  type GemmOptions,
  type PackedLhs,
  type ThinFactor,
} from './gemm';
export { csrFromDense, spmm, spmmTA, transposeCsr } from './sparse';
export { symEig, symEigValues, type SymEig } from './eig';
export { qr } from './qr';
export { procrustes, thinSvd, type Svd } from './svd';
export { polar } from './polar';
export { symEigSelect } from './eig';
export { choleskyFactor, choleskySolve } from './chol';
export { ldlFactor, ldlSolve, type Ldl } from './ldl';
export { luFactor, luSolve, type Lu } from './lu';
export { svd, svdTop } from './svd-gk';
