;; k-means' squared distances in WebAssembly SIMD (v128 as f64x2): the text source of
;; dist-wasm.ts, which `npm run build:wasm` (scripts/build-wasm.mjs, wabt) regenerates; a test
;; checks the two agree. The copying in and out stays in TypeScript (cluster/dist-kernel.ts).
;;
;; dist(xt, n, d, c, D, k, chg, m): for every row i < n and q < m, with j = chg[q],
;;   D[i·k + j] ← Σ_p (Xt[p·n + i] − C[j·d + p])²,
;; all at byte offsets in this module's memory: xt the data transposed (d rows of n f64, so
;; neighbouring samples are neighbouring values), c the centres (k × d f64, row-major), D the
;; distances (n × k f64, row-major; only the listed columns are written), chg the m column
;; indices (i32).
;;
;; Eight rows at a time (four f64x2 accumulators, one lane per row) against one centre, the
;; centre's coordinate splatted once per p and the rows' eight values loaded as four vectors; the
;; last n mod 8 rows one by one. Every value is summed from zero in the order p = 0 … d − 1 of
;; separate IEEE operations (the difference, its square, the sum: no fused multiply-add), as
;; `updateDistances` in kmeans-passes.ts sums it, so both give the same bits.
(module
  (memory (export "memory") 1)
  (func (export "dist")
    (param $xt i32) (param $n i32) (param $d i32) (param $c i32) (param $D i32) (param $k i32)
    (param $chg i32) (param $m i32)
    (local $i i32) (local $q i32) (local $j i32) (local $n8 i32)
    (local $nb i32) (local $kb i32) (local $xp i32) (local $cp i32) (local $cend i32)
    (local $dp i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $cv v128)
    (local $t v128) (local $s f64) (local $u f64)
    (local.set $nb (i32.shl (local.get $n) (i32.const 3)))
    (local.set $kb (i32.shl (local.get $k) (i32.const 3)))
    (local.set $n8 (i32.and (local.get $n) (i32.const -8)))
    ;; Blocks of eight rows.
    (local.set $i (i32.const 0))
    (block $iDone
      (loop $iLoop
        (br_if $iDone (i32.ge_s (local.get $i) (local.get $n8)))
        (local.set $q (i32.const 0))
        (block $qDone
          (loop $qLoop
            (br_if $qDone (i32.ge_s (local.get $q) (local.get $m)))
            (local.set $j
              (i32.load (i32.add (local.get $chg) (i32.shl (local.get $q) (i32.const 2)))))
            (local.set $a0 (f64x2.splat (f64.const 0)))
            (local.set $a1 (f64x2.splat (f64.const 0)))
            (local.set $a2 (f64x2.splat (f64.const 0)))
            (local.set $a3 (f64x2.splat (f64.const 0)))
            (local.set $xp (i32.add (local.get $xt) (i32.shl (local.get $i) (i32.const 3))))
            (local.set $cp (i32.add (local.get $c)
              (i32.shl (i32.mul (local.get $j) (local.get $d)) (i32.const 3))))
            (local.set $cend (i32.add (local.get $cp) (i32.shl (local.get $d) (i32.const 3))))
            (block $pDone
              (loop $pLoop
                (br_if $pDone (i32.ge_u (local.get $cp) (local.get $cend)))
                (local.set $cv (f64x2.splat (f64.load (local.get $cp))))
                (local.set $t (f64x2.sub (v128.load (local.get $xp)) (local.get $cv)))
                (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $t) (local.get $t))))
                (local.set $t (f64x2.sub (v128.load offset=16 (local.get $xp)) (local.get $cv)))
                (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $t) (local.get $t))))
                (local.set $t (f64x2.sub (v128.load offset=32 (local.get $xp)) (local.get $cv)))
                (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $t) (local.get $t))))
                (local.set $t (f64x2.sub (v128.load offset=48 (local.get $xp)) (local.get $cv)))
                (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $t) (local.get $t))))
                (local.set $xp (i32.add (local.get $xp) (local.get $nb)))
                (local.set $cp (i32.add (local.get $cp) (i32.const 8)))
                (br $pLoop)))
            ;; D[(i + r)k + j] for r = 0 ... 7: lane (r mod 2) of accumulator (r div 2).
            (local.set $dp (i32.add (local.get $D)
              (i32.shl (i32.add (i32.mul (local.get $i) (local.get $k)) (local.get $j))
                (i32.const 3))))
            (f64.store (local.get $dp) (f64x2.extract_lane 0 (local.get $a0)))
            (local.set $dp (i32.add (local.get $dp) (local.get $kb)))
            (f64.store (local.get $dp) (f64x2.extract_lane 1 (local.get $a0)))
            (local.set $dp (i32.add (local.get $dp) (local.get $kb)))
            (f64.store (local.get $dp) (f64x2.extract_lane 0 (local.get $a1)))
            (local.set $dp (i32.add (local.get $dp) (local.get $kb)))
            (f64.store (local.get $dp) (f64x2.extract_lane 1 (local.get $a1)))
            (local.set $dp (i32.add (local.get $dp) (local.get $kb)))
            (f64.store (local.get $dp) (f64x2.extract_lane 0 (local.get $a2)))
            (local.set $dp (i32.add (local.get $dp) (local.get $kb)))
            (f64.store (local.get $dp) (f64x2.extract_lane 1 (local.get $a2)))
            (local.set $dp (i32.add (local.get $dp) (local.get $kb)))
            (f64.store (local.get $dp) (f64x2.extract_lane 0 (local.get $a3)))
            (local.set $dp (i32.add (local.get $dp) (local.get $kb)))
            (f64.store (local.get $dp) (f64x2.extract_lane 1 (local.get $a3)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $qLoop)))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $iLoop)))
    ;; The last n mod 8 rows, one at a time.
    (block $rDone
      (loop $rLoop
        (br_if $rDone (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $q (i32.const 0))
        (block $qDone2
          (loop $qLoop2
            (br_if $qDone2 (i32.ge_s (local.get $q) (local.get $m)))
            (local.set $j
              (i32.load (i32.add (local.get $chg) (i32.shl (local.get $q) (i32.const 2)))))
            (local.set $s (f64.const 0))
            (local.set $xp (i32.add (local.get $xt) (i32.shl (local.get $i) (i32.const 3))))
            (local.set $cp (i32.add (local.get $c)
              (i32.shl (i32.mul (local.get $j) (local.get $d)) (i32.const 3))))
            (local.set $cend (i32.add (local.get $cp) (i32.shl (local.get $d) (i32.const 3))))
            (block $pDone2
              (loop $pLoop2
                (br_if $pDone2 (i32.ge_u (local.get $cp) (local.get $cend)))
                (local.set $u (f64.sub (f64.load (local.get $xp)) (f64.load (local.get $cp))))
                (local.set $s (f64.add (local.get $s) (f64.mul (local.get $u) (local.get $u))))
                (local.set $xp (i32.add (local.get $xp) (local.get $nb)))
                (local.set $cp (i32.add (local.get $cp) (i32.const 8)))
                (br $pLoop2)))
            (f64.store
              (i32.add (local.get $D)
                (i32.shl (i32.add (i32.mul (local.get $i) (local.get $k)) (local.get $j))
                  (i32.const 3)))
              (local.get $s))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $qLoop2)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rLoop)))))
