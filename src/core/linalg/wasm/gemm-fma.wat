;; The GEMM kernels with fused multiply-add (WebAssembly relaxed SIMD, f64x2.relaxed_madd): the
;; text source of gemm-fma-wasm.ts, which `npm run build:wasm` regenerates (wabt with relaxed SIMD
;; on); a test checks the two agree. gemm/wasm.ts instantiates it over gemm.wat's memory where
;; the engine validates it (relaxed SIMD: Chromium ≥ 114 and so Electron, Node ≥ 22; Node 20 only
;; with --experimental-wasm-relaxed-simd) and `probe` shows that relaxed_madd fuses (the proposal
;; lets an engine round twice; V8 fuses on x64 with FMA3 and on arm64).
;;
;; block, ta and nn are gemm.wat's, with the same arguments, layouts, register tiles, loops and
;; summation order (see there); only each step's update of an f64x2 accumulator is one
;; relaxed_madd, s ← fl(x·b + s) with a single rounding, instead of a rounded product and a
;; rounded sum. So every entry is the fused sequential dot product, from +0 (or, in `block` with
;; acc set, T's previous value) in order of the depth, and `ta`/`nn` still give `block`'s bits
;; for the same depth. block: 8 relaxed_madd = 32 flops per 6 loads on a 4×4 tile. (4×6 and 4×5
;; tiles, 12 and 10 accumulators, ran slower on V8 11.3: with 15 allocatable xmm registers its
;; scheduler hoists the splat loads and spills accumulators inside the depth loop.)
;;
;; probe(x, y, z) = lane 0 of relaxed_madd(x, y, z): fl(x·y + z) where it fuses, fl(fl(x·y) + z)
;; where it does not; gemm/wasm.ts tells the two apart with x = 1 + 2⁻³⁰, y = 1 − 2⁻³⁰, z = −1.
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
              (local.set $c00 (f64x2.relaxed_madd (local.get $x) (local.get $b0) (local.get $c00)))
              (local.set $c01 (f64x2.relaxed_madd (local.get $x) (local.get $b1) (local.get $c01)))
              (local.set $x (v128.load64_splat offset=8 (local.get $a)))
              (local.set $c10 (f64x2.relaxed_madd (local.get $x) (local.get $b0) (local.get $c10)))
              (local.set $c11 (f64x2.relaxed_madd (local.get $x) (local.get $b1) (local.get $c11)))
              (local.set $x (v128.load64_splat offset=16 (local.get $a)))
              (local.set $c20 (f64x2.relaxed_madd (local.get $x) (local.get $b0) (local.get $c20)))
              (local.set $c21 (f64x2.relaxed_madd (local.get $x) (local.get $b1) (local.get $c21)))
              (local.set $x (v128.load64_splat offset=24 (local.get $a)))
              (local.set $c30 (f64x2.relaxed_madd (local.get $x) (local.get $b0) (local.get $c30)))
              (local.set $c31 (f64x2.relaxed_madd (local.get $x) (local.get $b1) (local.get $c31)))
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
        (br $jLoop))))
  (func (export "ta")
    (param $pa i32) (param $pb i32) (param $pt i32) (param $n i32) (param $ka i32) (param $kb i32)
    (local $a0 i32) (local $j0 i32) (local $i i32) (local $pA i32) (local $pB i32) (local $pT i32)
    (local $aBytes i32) (local $bBytes i32) (local $tBytes i32)
    (local $x0 v128) (local $x1 v128) (local $b0 v128) (local $b1 v128) (local $b2 v128)
    (local $b3 v128)
    (local $s00 v128) (local $s01 v128) (local $s02 v128) (local $s03 v128)
    (local $s10 v128) (local $s11 v128) (local $s12 v128) (local $s13 v128)
    (local.set $aBytes (i32.shl (local.get $ka) (i32.const 3)))
    (local.set $bBytes (i32.shl (local.get $kb) (i32.const 3)))
    (local.set $tBytes (i32.shl (i32.and (i32.add (local.get $kb) (i32.const 7)) (i32.const -8))
      (i32.const 3)))
    (local.set $a0 (i32.const 0))
    (block $aDone
      (loop $aLoop
        (br_if $aDone (i32.ge_s (local.get $a0) (local.get $ka)))
        (local.set $j0 (i32.const 0))
        (block $jDone
          (loop $jLoop
            (br_if $jDone (i32.ge_s (local.get $j0) (local.get $kb)))
            (local.set $pA (i32.add (local.get $pa) (i32.shl (local.get $a0) (i32.const 3))))
            (local.set $pB (i32.add (local.get $pb) (i32.shl (local.get $j0) (i32.const 3))))
            (local.set $pT (i32.add (i32.add (local.get $pt)
              (i32.mul (local.get $a0) (local.get $tBytes))) (i32.shl (local.get $j0) (i32.const 3))))
            (local.set $i (i32.const 0))
            (if (i32.gt_s (i32.sub (local.get $kb) (local.get $j0)) (i32.const 6))
              (then
                ;; Eight columns: two rows × four f64x2.
                (local.set $s00 (v128.const f64x2 0 0))
                (local.set $s01 (v128.const f64x2 0 0))
                (local.set $s02 (v128.const f64x2 0 0))
                (local.set $s03 (v128.const f64x2 0 0))
                (local.set $s10 (v128.const f64x2 0 0))
                (local.set $s11 (v128.const f64x2 0 0))
                (local.set $s12 (v128.const f64x2 0 0))
                (local.set $s13 (v128.const f64x2 0 0))
                (block $iDone8
                  (loop $iLoop8
                    (br_if $iDone8 (i32.ge_s (local.get $i) (local.get $n)))
                    (local.set $x0 (v128.load64_splat (local.get $pA)))
                    (local.set $x1 (v128.load64_splat offset=8 (local.get $pA)))
                    (local.set $b0 (v128.load (local.get $pB)))
                    (local.set $b1 (v128.load offset=16 (local.get $pB)))
                    (local.set $b2 (v128.load offset=32 (local.get $pB)))
                    (local.set $b3 (v128.load offset=48 (local.get $pB)))
                    (local.set $s00 (f64x2.relaxed_madd (local.get $x0) (local.get $b0) (local.get $s00)))
                    (local.set $s01 (f64x2.relaxed_madd (local.get $x0) (local.get $b1) (local.get $s01)))
                    (local.set $s02 (f64x2.relaxed_madd (local.get $x0) (local.get $b2) (local.get $s02)))
                    (local.set $s03 (f64x2.relaxed_madd (local.get $x0) (local.get $b3) (local.get $s03)))
                    (local.set $s10 (f64x2.relaxed_madd (local.get $x1) (local.get $b0) (local.get $s10)))
                    (local.set $s11 (f64x2.relaxed_madd (local.get $x1) (local.get $b1) (local.get $s11)))
                    (local.set $s12 (f64x2.relaxed_madd (local.get $x1) (local.get $b2) (local.get $s12)))
                    (local.set $s13 (f64x2.relaxed_madd (local.get $x1) (local.get $b3) (local.get $s13)))
                    (local.set $pA (i32.add (local.get $pA) (local.get $aBytes)))
                    (local.set $pB (i32.add (local.get $pB) (local.get $bBytes)))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $iLoop8)))
                (v128.store (local.get $pT) (local.get $s00))
                (v128.store offset=16 (local.get $pT) (local.get $s01))
                (v128.store offset=32 (local.get $pT) (local.get $s02))
                (v128.store offset=48 (local.get $pT) (local.get $s03))
                (local.set $pT (i32.add (local.get $pT) (local.get $tBytes)))
                (v128.store (local.get $pT) (local.get $s10))
                (v128.store offset=16 (local.get $pT) (local.get $s11))
                (v128.store offset=32 (local.get $pT) (local.get $s12))
                (v128.store offset=48 (local.get $pT) (local.get $s13))
                (local.set $j0 (i32.add (local.get $j0) (i32.const 8))))
              (else
                ;; Two columns: two rows × one f64x2.
                (local.set $s00 (v128.const f64x2 0 0))
                (local.set $s10 (v128.const f64x2 0 0))
                (block $iDone2
                  (loop $iLoop2
                    (br_if $iDone2 (i32.ge_s (local.get $i) (local.get $n)))
                    (local.set $b0 (v128.load (local.get $pB)))
                    (local.set $s00 (f64x2.relaxed_madd (v128.load64_splat (local.get $pA)) (local.get $b0) (local.get $s00)))
                    (local.set $s10 (f64x2.relaxed_madd (v128.load64_splat offset=8 (local.get $pA)) (local.get $b0) (local.get $s10)))
                    (local.set $pA (i32.add (local.get $pA) (local.get $aBytes)))
                    (local.set $pB (i32.add (local.get $pB) (local.get $bBytes)))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (br $iLoop2)))
                (v128.store (local.get $pT) (local.get $s00))
                (v128.store (i32.add (local.get $pT) (local.get $tBytes)) (local.get $s10))
                (local.set $j0 (i32.add (local.get $j0) (i32.const 2)))))
            (br $jLoop)))
        (local.set $a0 (i32.add (local.get $a0) (i32.const 2)))
        (br $aLoop))))
  (func (export "nn")
    (param $pa i32) (param $pm i32) (param $pc i32) (param $n i32) (param $k i32) (param $kb i32)
    (local $i i32) (local $j0 i32) (local $a i32) (local $pA i32) (local $pM i32) (local $pC i32)
    (local $aRow i32) (local $mBytes i32) (local $x v128)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $s4 v128) (local $s5 v128)
    (local.set $mBytes (i32.shl (i32.and (i32.add (local.get $kb) (i32.const 7)) (i32.const -8))
      (i32.const 3)))
    (local.set $aRow (local.get $pa))
    (local.set $pC (local.get $pc))
    (local.set $i (i32.const 0))
    (block $iDone
      (loop $iLoop
        (br_if $iDone (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $j0 (i32.const 0))
        (block $jDone
          (loop $jLoop
            (br_if $jDone (i32.ge_s (local.get $j0) (local.get $kb)))
            (local.set $pA (local.get $aRow))
            (local.set $pM (i32.add (local.get $pm) (i32.shl (local.get $j0) (i32.const 3))))
            (local.set $a (i32.const 0))
            (if (i32.gt_s (i32.sub (local.get $kb) (local.get $j0)) (i32.const 8))
              (then
                ;; Nine to twelve columns (c = 10): six f64x2, one sweep.
                (local.set $s0 (v128.const f64x2 0 0))
                (local.set $s1 (v128.const f64x2 0 0))
                (local.set $s2 (v128.const f64x2 0 0))
                (local.set $s3 (v128.const f64x2 0 0))
                (local.set $s4 (v128.const f64x2 0 0))
                (local.set $s5 (v128.const f64x2 0 0))
                (block $aDone12
                  (loop $aLoop12
                    (br_if $aDone12 (i32.ge_s (local.get $a) (local.get $k)))
                    (local.set $x (v128.load64_splat (local.get $pA)))
                    (local.set $s0 (f64x2.relaxed_madd (local.get $x) (v128.load (local.get $pM)) (local.get $s0)))
                    (local.set $s1 (f64x2.relaxed_madd (local.get $x) (v128.load offset=16 (local.get $pM)) (local.get $s1)))
                    (local.set $s2 (f64x2.relaxed_madd (local.get $x) (v128.load offset=32 (local.get $pM)) (local.get $s2)))
                    (local.set $s3 (f64x2.relaxed_madd (local.get $x) (v128.load offset=48 (local.get $pM)) (local.get $s3)))
                    (local.set $s4 (f64x2.relaxed_madd (local.get $x) (v128.load offset=64 (local.get $pM)) (local.get $s4)))
                    (local.set $s5 (f64x2.relaxed_madd (local.get $x) (v128.load offset=80 (local.get $pM)) (local.get $s5)))
                    (local.set $pA (i32.add (local.get $pA) (i32.const 8)))
                    (local.set $pM (i32.add (local.get $pM) (local.get $mBytes)))
                    (local.set $a (i32.add (local.get $a) (i32.const 1)))
                    (br $aLoop12)))
                (v128.store (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s0))
                (v128.store offset=16 (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s1))
                (v128.store offset=32 (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s2))
                (v128.store offset=48 (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s3))
                (v128.store offset=64 (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s4))
                (v128.store offset=80 (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s5))
                (local.set $j0 (i32.add (local.get $j0) (i32.const 12))))
            (else (if (i32.gt_s (i32.sub (local.get $kb) (local.get $j0)) (i32.const 6))
              (then
                (local.set $s0 (v128.const f64x2 0 0))
                (local.set $s1 (v128.const f64x2 0 0))
                (local.set $s2 (v128.const f64x2 0 0))
                (local.set $s3 (v128.const f64x2 0 0))
                (block $aDone8
                  (loop $aLoop8
                    (br_if $aDone8 (i32.ge_s (local.get $a) (local.get $k)))
                    (local.set $x (v128.load64_splat (local.get $pA)))
                    (local.set $s0 (f64x2.relaxed_madd (local.get $x) (v128.load (local.get $pM)) (local.get $s0)))
                    (local.set $s1 (f64x2.relaxed_madd (local.get $x) (v128.load offset=16 (local.get $pM)) (local.get $s1)))
                    (local.set $s2 (f64x2.relaxed_madd (local.get $x) (v128.load offset=32 (local.get $pM)) (local.get $s2)))
                    (local.set $s3 (f64x2.relaxed_madd (local.get $x) (v128.load offset=48 (local.get $pM)) (local.get $s3)))
                    (local.set $pA (i32.add (local.get $pA) (i32.const 8)))
                    (local.set $pM (i32.add (local.get $pM) (local.get $mBytes)))
                    (local.set $a (i32.add (local.get $a) (i32.const 1)))
                    (br $aLoop8)))
                (v128.store (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s0))
                (v128.store offset=16 (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s1))
                (v128.store offset=32 (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s2))
                (v128.store offset=48 (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s3))
                (local.set $j0 (i32.add (local.get $j0) (i32.const 8))))
              (else
                (local.set $s0 (v128.const f64x2 0 0))
                (block $aDone2
                  (loop $aLoop2
                    (br_if $aDone2 (i32.ge_s (local.get $a) (local.get $k)))
                    (local.set $s0 (f64x2.relaxed_madd (v128.load64_splat (local.get $pA)) (v128.load (local.get $pM)) (local.get $s0)))
                    (local.set $pA (i32.add (local.get $pA) (i32.const 8)))
                    (local.set $pM (i32.add (local.get $pM) (local.get $mBytes)))
                    (local.set $a (i32.add (local.get $a) (i32.const 1)))
                    (br $aLoop2)))
                (v128.store (i32.add (local.get $pC) (i32.shl (local.get $j0) (i32.const 3))) (local.get $s0))
                (local.set $j0 (i32.add (local.get $j0) (i32.const 2)))))))
            (br $jLoop)))
        (local.set $aRow (i32.add (local.get $aRow) (i32.shl (local.get $k) (i32.const 3))))
        (local.set $pC (i32.add (local.get $pC) (i32.shl (local.get $kb) (i32.const 3))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $iLoop))))
  (func (export "probe") (param $x f64) (param $y f64) (param $z f64) (result f64)
    (f64x2.extract_lane 0
      (f64x2.relaxed_madd (f64x2.splat (local.get $x)) (f64x2.splat (local.get $y))
        (f64x2.splat (local.get $z))))))
