;; The GEMM macro-kernel in WebAssembly SIMD (v128 as f64x2): the text source of gemm-wasm.ts,
;; which `npm run build:wasm` (scripts/build-wasm.mjs, wabt) regenerates; a test checks the two
;; agree. The packing and the cache blocking stay in TypeScript (gemm.ts); this file is only the
;; loop over the 4×4 micro-tiles of one packed block.
;;
;; block(pa, pb, pc, mb, nb, kb, ldc, lim, acc): T ← A·B (acc = 0) or T ← T + A·B (acc ≠ 0), with
;; A mb×kb, B kb×nb, T mb×nb, all in the imported memory (gemm.ts sizes it), at byte offsets:
;; - pa: A packed as mb/4 slivers of 4 rows, each k-major: A[4s + r, p] is the f64 at
;;   pa + 8·(4·kb·s + 4p + r);
;; - pb: B packed as nb/4 slivers of 4 columns, each k-major: B[p, 4t + q] is the f64 at
;;   pb + 8·(4·kb·t + 4p + q);
;; - pc: T, row-major with ldc f64 per row.
;; mb and nb are multiples of 4 (the packing zero-pads) and kb ≥ 1. With lim, the tile at (i, j)
;; is computed only when i < lim + j + 4 (lim ≥ mb computes all; syrk passes the diagonal's
;; offset so tiles wholly below it are skipped, and leaves theirs untouched). 2·mb·nb·kb flops.
;;
;; The micro-kernel keeps the 4×4 tile in 8 registers, each row as two f64x2 halves. One depth
;; step loads two B vectors (the 4 columns) and, row by row, splats one A value and multiplies it
;; into both halves: 8 f64x2.mul + 8 f64x2.add = 32 flops per 6 loads. Products and sums are
;; separate IEEE operations (no fused multiply-add), added in the order p = 0, 1, ..., kb − 1 onto
;; the tile's previous value, so a sum over several calls with acc set is the plain sequential
;; dot product.
(module
  (import "env" "memory" (memory 1))
  (func (export "block")
    (param $pa i32) (param $pb i32) (param $pc i32)
    (param $mb i32) (param $nb i32) (param $kb i32) (param $ldc i32) (param $lim i32)
    (param $acc i32)
    (local $j i32) (local $i i32) (local $iEnd i32)
    (local $sliver i32) (local $rowStep i32) (local $ldcBytes i32)
    (local $a i32) (local $aEnd i32) (local $b i32) (local $c i32)
    (local $b0 v128) (local $b1 v128) (local $x v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    ;; Bytes of one packed sliver (4·kb f64), of one row of T and of a tile's four rows.
    (local.set $sliver (i32.shl (local.get $kb) (i32.const 5)))
    (local.set $ldcBytes (i32.shl (local.get $ldc) (i32.const 3)))
    (local.set $rowStep (i32.shl (local.get $ldc) (i32.const 5)))
    (if (i32.le_s (local.get $kb) (i32.const 0)) (then (return)))
    (local.set $j (i32.const 0))
    (block $jDone
      (loop $jLoop
        (br_if $jDone (i32.ge_s (local.get $j) (local.get $nb)))
        ;; Rows of tiles needed for this column of tiles: i < min(mb, lim + j + 4).
        (local.set $iEnd (i32.add (i32.add (local.get $lim) (local.get $j)) (i32.const 4)))
        (if (i32.gt_s (local.get $iEnd) (local.get $mb))
          (then (local.set $iEnd (local.get $mb))))
        (local.set $i (i32.const 0))
        ;; a walks the A slivers; c the tiles of T down this column of tiles.
        (local.set $a (local.get $pa))
        (local.set $c (i32.add (local.get $pc) (i32.shl (local.get $j) (i32.const 3))))
        (block $iDone
          (loop $iLoop
            (br_if $iDone (i32.ge_s (local.get $i) (local.get $iEnd)))
            (local.set $b (i32.add (local.get $pb) (i32.mul (local.get $j) (i32.shl (local.get $kb) (i32.const 3)))))
            (local.set $aEnd (i32.add (local.get $a) (local.get $sliver)))
            ;; The tile's starting value: T's (acc) or zero.
            (if (local.get $acc)
              (then
                (local.set $c00 (v128.load (local.get $c)))
                (local.set $c01 (v128.load offset=16 (local.get $c)))
                (local.set $c10 (v128.load (i32.add (local.get $c) (local.get $ldcBytes))))
                (local.set $c11 (v128.load offset=16 (i32.add (local.get $c) (local.get $ldcBytes))))
                (local.set $c20 (v128.load (i32.add (local.get $c) (i32.shl (local.get $ldcBytes) (i32.const 1)))))
                (local.set $c21 (v128.load offset=16 (i32.add (local.get $c) (i32.shl (local.get $ldcBytes) (i32.const 1)))))
                (local.set $c30 (v128.load (i32.sub (i32.add (local.get $c) (local.get $rowStep)) (local.get $ldcBytes))))
                (local.set $c31 (v128.load offset=16 (i32.sub (i32.add (local.get $c) (local.get $rowStep)) (local.get $ldcBytes)))))
              (else
                (local.set $c00 (v128.const i64x2 0 0))
                (local.set $c01 (v128.const i64x2 0 0))
                (local.set $c10 (v128.const i64x2 0 0))
                (local.set $c11 (v128.const i64x2 0 0))
                (local.set $c20 (v128.const i64x2 0 0))
                (local.set $c21 (v128.const i64x2 0 0))
                (local.set $c30 (v128.const i64x2 0 0))
                (local.set $c31 (v128.const i64x2 0 0))))
            ;; One depth step per iteration (kb ≥ 1).
            (loop $pLoop
              (local.set $b0 (v128.load (local.get $b)))
              (local.set $b1 (v128.load offset=16 (local.get $b)))
              (local.set $x (v128.load64_splat (local.get $a)))
              (local.set $c00 (f64x2.add (local.get $c00) (f64x2.mul (local.get $x) (local.get $b0))))
              (local.set $c01 (f64x2.add (local.get $c01) (f64x2.mul (local.get $x) (local.get $b1))))
              (local.set $x (v128.load64_splat offset=8 (local.get $a)))
              (local.set $c10 (f64x2.add (local.get $c10) (f64x2.mul (local.get $x) (local.get $b0))))
              (local.set $c11 (f64x2.add (local.get $c11) (f64x2.mul (local.get $x) (local.get $b1))))
              (local.set $x (v128.load64_splat offset=16 (local.get $a)))
              (local.set $c20 (f64x2.add (local.get $c20) (f64x2.mul (local.get $x) (local.get $b0))))
              (local.set $c21 (f64x2.add (local.get $c21) (f64x2.mul (local.get $x) (local.get $b1))))
              (local.set $x (v128.load64_splat offset=24 (local.get $a)))
              (local.set $c30 (f64x2.add (local.get $c30) (f64x2.mul (local.get $x) (local.get $b0))))
              (local.set $c31 (f64x2.add (local.get $c31) (f64x2.mul (local.get $x) (local.get $b1))))
              (local.set $a (i32.add (local.get $a) (i32.const 32)))
              (local.set $b (i32.add (local.get $b) (i32.const 32)))
              (br_if $pLoop (i32.lt_u (local.get $a) (local.get $aEnd))))
            ;; Store the tile into T, row by row (a now points at the next A sliver).
            (v128.store (local.get $c) (local.get $c00))
            (v128.store offset=16 (local.get $c) (local.get $c01))
            (v128.store (i32.add (local.get $c) (local.get $ldcBytes)) (local.get $c10))
            (v128.store offset=16 (i32.add (local.get $c) (local.get $ldcBytes)) (local.get $c11))
            (v128.store (i32.add (local.get $c) (i32.shl (local.get $ldcBytes) (i32.const 1))) (local.get $c20))
            (v128.store offset=16 (i32.add (local.get $c) (i32.shl (local.get $ldcBytes) (i32.const 1))) (local.get $c21))
            (v128.store (i32.sub (i32.add (local.get $c) (local.get $rowStep)) (local.get $ldcBytes)) (local.get $c30))
            (v128.store offset=16 (i32.sub (i32.add (local.get $c) (local.get $rowStep)) (local.get $ldcBytes)) (local.get $c31))
            (local.set $c (i32.add (local.get $c) (local.get $rowStep)))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $iLoop)))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $jLoop)))))
