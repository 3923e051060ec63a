;; One fused Hamerly reassignment scan of k-means in WebAssembly SIMD (v128 as f64x2): the text
;; source of hamerly-wasm.ts, which `npm run build:wasm` (scripts/build-wasm.mjs, wabt)
;; regenerates; a test checks the two agree. cluster/hamerly-kernel.ts copies the parts in and
;; out and keeps X resident for a whole k-means call.
;;
;; scan(x, n, d, c, cp, k, half, labels, lower, sums, counts, mv, out, row,
;;      max1, max2, arg1, skipUp, slackUp, slackDown, sse, owns) → sse'
;; does, for every row i < n in order, what `boundedScan` (kmeans-bounds.ts) does, with the
;; same IEEE operations in the same order (so the same bits):
;; - own = Σ_p (x_ip − c_ap)², a = labels[i], summed from zero over p = 0 … d − 1; sse += own;
;; - lo = lower[i] − (a = arg1 ? max2 : max1); skip when lo > 0 and lo² ≥ own·skipUp, or when
;;   h = 2·half[a] − √(own·slackUp) > 0 and h² ≥ own·skipUp; then lower[i] = lo;
;; - else every distance to the k centres (two centres per f64x2, lanes = centres, from the
;;   paired copy cp: pair b holds centres 2b and 2b + 1 interleaved, d × 2 f64; each lane summed
;;   from zero over p in order), the first minimum; a move when it is strictly below own
;;   (recorded as mv[2·moves] = i, mv[2·moves + 1] = target); lower[i] = √(second·slackDown),
;;   second the smallest distance to a centre other than the target;
;; - counts[target] += 1, sums[target, :] += x_i (two features per f64x2, elementwise); or,
;;   when owns ≠ 0 (a helper's share of the rows), owns[i] = own (f64) and labels[i] = target
;;   instead, the caller adding the sums in row order.
;; out[0] (i32) holds the moves so far on entry and on return; out[1] the rows not skipped.
;; All pointers are byte offsets in this module's memory: x the rows (n × d f64, row-major), c
;; the centres (k × d f64), half and counts (k f64), labels (n i32), lower (n f64), sums (k × d
;; f64), mv (2n i32), row (k rounded up to even, f64).
(module
  (memory (export "memory") 1)
  (func (export "scan")
    (param $x i32) (param $n i32) (param $d i32) (param $c i32) (param $cp i32) (param $k i32)
    (param $half i32) (param $labels i32) (param $lower i32) (param $sums i32)
    (param $counts i32) (param $mv i32) (param $out i32) (param $row i32)
    (param $max1 f64) (param $max2 f64) (param $arg1 i32) (param $skipUp f64)
    (param $slackUp f64) (param $slackDown f64) (param $sse f64) (param $owns i32)
    (result f64)
    (local $i i32) (local $a i32) (local $db i32) (local $xi i32) (local $xp i32)
    (local $xend i32) (local $cq i32) (local $p0 i32) (local $p1 i32) (local $b i32)
    (local $pairs i32) (local $j i32) (local $best i32) (local $target i32) (local $moves i32)
    (local $unskipped i32) (local $sp i32) (local $d2 i32)
    (local $own f64) (local $t f64) (local $lo f64) (local $need f64) (local $h f64)
    (local $min f64) (local $v f64) (local $second f64) (local $skip i32)
    (local $xv v128) (local $u v128) (local $a0 v128) (local $a1 v128)
    (local.set $db (i32.shl (local.get $d) (i32.const 3)))
    (local.set $pairs (i32.shr_u (i32.add (local.get $k) (i32.const 1)) (i32.const 1)))
    (local.set $d2 (i32.and (local.get $d) (i32.const -2)))
    (local.set $moves (i32.load (local.get $out)))
    (local.set $unskipped (i32.const 0))
    (local.set $i (i32.const 0))
    (block $iDone
      (loop $iLoop
        (br_if $iDone (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $a (i32.load (i32.add (local.get $labels) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $xi (i32.add (local.get $x) (i32.mul (local.get $i) (local.get $db))))
        (local.set $xend (i32.add (local.get $xi) (local.get $db)))
        ;; own = Σ_p (x_ip − c_ap)², in order.
        (local.set $own (f64.const 0))
        (local.set $xp (local.get $xi))
        (local.set $cq (i32.add (local.get $c) (i32.mul (local.get $a) (local.get $db))))
        (block $oDone
          (loop $oLoop
            (br_if $oDone (i32.ge_u (local.get $xp) (local.get $xend)))
            (local.set $t (f64.sub (f64.load (local.get $xp)) (f64.load (local.get $cq))))
            (local.set $own (f64.add (local.get $own) (f64.mul (local.get $t) (local.get $t))))
            (local.set $xp (i32.add (local.get $xp) (i32.const 8)))
            (local.set $cq (i32.add (local.get $cq) (i32.const 8)))
            (br $oLoop)))
        (local.set $sse (f64.add (local.get $sse) (local.get $own)))
        ;; The bound test.
        (local.set $lo
          (f64.sub
            (f64.load (i32.add (local.get $lower) (i32.shl (local.get $i) (i32.const 3))))
            (select (local.get $max2) (local.get $max1) (i32.eq (local.get $a) (local.get $arg1)))))
        (local.set $need (f64.mul (local.get $own) (local.get $skipUp)))
        (local.set $skip
          (i32.and (f64.gt (local.get $lo) (f64.const 0))
            (f64.ge (f64.mul (local.get $lo) (local.get $lo)) (local.get $need))))
        (if (i32.eqz (local.get $skip))
          (then
            (local.set $h
              (f64.sub
                (f64.mul (f64.const 2)
                  (f64.load (i32.add (local.get $half) (i32.shl (local.get $a) (i32.const 3)))))
                (f64.sqrt (f64.mul (local.get $own) (local.get $slackUp)))))
            (local.set $skip
              (i32.and (f64.gt (local.get $h) (f64.const 0))
                (f64.ge (f64.mul (local.get $h) (local.get $h)) (local.get $need))))))
        (local.set $target (local.get $a))
        (if (local.get $skip)
          (then
            (f64.store (i32.add (local.get $lower) (i32.shl (local.get $i) (i32.const 3)))
              (local.get $lo)))
          (else
            (local.set $unskipped (i32.add (local.get $unskipped) (i32.const 1)))
            ;; Every distance: two pairs (four centres) per pass over p, then a last pair.
            (local.set $b (i32.const 0))
            (block $bDone
              (loop $bLoop
                (br_if $bDone (i32.ge_s (i32.add (local.get $b) (i32.const 1)) (local.get $pairs)))
                (local.set $a0 (f64x2.splat (f64.const 0)))
                (local.set $a1 (f64x2.splat (f64.const 0)))
                (local.set $p0 (i32.add (local.get $cp)
                  (i32.shl (i32.mul (local.get $b) (local.get $db)) (i32.const 1))))
                (local.set $p1 (i32.add (local.get $p0) (i32.shl (local.get $db) (i32.const 1))))
                (local.set $xp (local.get $xi))
                (block $pDone
                  (loop $pLoop
                    (br_if $pDone (i32.ge_u (local.get $xp) (local.get $xend)))
                    (local.set $xv (v128.load64_splat (local.get $xp)))
                    (local.set $u (f64x2.sub (local.get $xv) (v128.load (local.get $p0))))
                    (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $u) (local.get $u))))
                    (local.set $u (f64x2.sub (local.get $xv) (v128.load (local.get $p1))))
                    (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $u) (local.get $u))))
                    (local.set $xp (i32.add (local.get $xp) (i32.const 8)))
                    (local.set $p0 (i32.add (local.get $p0) (i32.const 16)))
                    (local.set $p1 (i32.add (local.get $p1) (i32.const 16)))
                    (br $pLoop)))
                (v128.store (i32.add (local.get $row) (i32.shl (local.get $b) (i32.const 4)))
                  (local.get $a0))
                (v128.store offset=16 (i32.add (local.get $row) (i32.shl (local.get $b) (i32.const 4)))
                  (local.get $a1))
                (local.set $b (i32.add (local.get $b) (i32.const 2)))
                (br $bLoop)))
            (if (i32.lt_s (local.get $b) (local.get $pairs))
              (then
                (local.set $a0 (f64x2.splat (f64.const 0)))
                (local.set $p0 (i32.add (local.get $cp)
                  (i32.shl (i32.mul (local.get $b) (local.get $db)) (i32.const 1))))
                (local.set $xp (local.get $xi))
                (block $qDone
                  (loop $qLoop
                    (br_if $qDone (i32.ge_u (local.get $xp) (local.get $xend)))
                    (local.set $u (f64x2.sub (v128.load64_splat (local.get $xp))
                      (v128.load (local.get $p0))))
                    (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $u) (local.get $u))))
                    (local.set $xp (i32.add (local.get $xp) (i32.const 8)))
                    (local.set $p0 (i32.add (local.get $p0) (i32.const 16)))
                    (br $qLoop)))
                (v128.store (i32.add (local.get $row) (i32.shl (local.get $b) (i32.const 4)))
                  (local.get $a0))))
            ;; The first minimum; a move when strictly closer than own.
            (local.set $min (f64.const inf))
            (local.set $best (i32.const 0))
            (local.set $j (i32.const 0))
            (block $mDone
              (loop $mLoop
                (br_if $mDone (i32.ge_s (local.get $j) (local.get $k)))
                (local.set $v (f64.load (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 3)))))
                (if (f64.lt (local.get $v) (local.get $min))
                  (then (local.set $min (local.get $v)) (local.set $best (local.get $j))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $mLoop)))
            (if (f64.lt (local.get $min) (local.get $own))
              (then
                (local.set $sp (i32.add (local.get $mv) (i32.shl (local.get $moves) (i32.const 3))))
                (i32.store (local.get $sp) (local.get $i))
                (i32.store offset=4 (local.get $sp) (local.get $best))
                (local.set $moves (i32.add (local.get $moves) (i32.const 1)))
                (local.set $target (local.get $best))))
            (local.set $second (f64.const inf))
            (local.set $j (i32.const 0))
            (block $sDone
              (loop $sLoop
                (br_if $sDone (i32.ge_s (local.get $j) (local.get $k)))
                (local.set $v (f64.load (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 3)))))
                (if (i32.and (i32.ne (local.get $j) (local.get $target))
                      (f64.lt (local.get $v) (local.get $second)))
                  (then (local.set $second (local.get $v))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $sLoop)))
            (f64.store (i32.add (local.get $lower) (i32.shl (local.get $i) (i32.const 3)))
              (f64.sqrt (f64.mul (local.get $second) (local.get $slackDown))))))
        (if (local.get $owns)
          (then
            (f64.store (i32.add (local.get $owns) (i32.shl (local.get $i) (i32.const 3)))
              (local.get $own))
            (i32.store (i32.add (local.get $labels) (i32.shl (local.get $i) (i32.const 2)))
              (local.get $target))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $iLoop)))
        ;; counts[target] += 1; sums[target, :] += x_i, two features per f64x2.
        (local.set $sp (i32.add (local.get $counts) (i32.shl (local.get $target) (i32.const 3))))
        (f64.store (local.get $sp) (f64.add (f64.load (local.get $sp)) (f64.const 1)))
        (local.set $sp (i32.add (local.get $sums) (i32.mul (local.get $target) (local.get $db))))
        (local.set $xp (local.get $xi))
        (local.set $xend (i32.add (local.get $xi) (i32.shl (local.get $d2) (i32.const 3))))
        (block $uDone
          (loop $uLoop
            (br_if $uDone (i32.ge_u (local.get $xp) (local.get $xend)))
            (v128.store (local.get $sp)
              (f64x2.add (v128.load (local.get $sp)) (v128.load (local.get $xp))))
            (local.set $xp (i32.add (local.get $xp) (i32.const 16)))
            (local.set $sp (i32.add (local.get $sp) (i32.const 16)))
            (br $uLoop)))
        (if (i32.ne (local.get $d2) (local.get $d))
          (then
            (f64.store (local.get $sp)
              (f64.add (f64.load (local.get $sp)) (f64.load (local.get $xp))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $iLoop)))
    (i32.store (local.get $out) (local.get $moves))
    (i32.store offset=4 (local.get $out) (local.get $unskipped))
    (local.get $sse))
  ;; add(x, n, d, targets, owns, sums, counts, sse) → sse': for every row i < n in order, what
  ;; scan adds for a row (sse += owns[i]; counts[t] += 1; sums[t, :] += x_i, t = targets[i]),
  ;; the same operations in the same order: the sums of rows whose scan ran elsewhere (a helper
  ;; thread's share). targets (n i32) and owns (n f64) as scan writes them with owns ≠ 0.
  (func (export "add")
    (param $x i32) (param $n i32) (param $d i32) (param $targets i32) (param $owns i32)
    (param $sums i32) (param $counts i32) (param $sse f64)
    (result f64)
    (local $i i32) (local $db i32) (local $d2 i32) (local $t i32) (local $xp i32)
    (local $xend i32) (local $sp i32)
    (local.set $db (i32.shl (local.get $d) (i32.const 3)))
    (local.set $d2 (i32.and (local.get $d) (i32.const -2)))
    (local.set $i (i32.const 0))
    (block $iDone
      (loop $iLoop
        (br_if $iDone (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $sse (f64.add (local.get $sse)
          (f64.load (i32.add (local.get $owns) (i32.shl (local.get $i) (i32.const 3))))))
        (local.set $t (i32.load (i32.add (local.get $targets) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $sp (i32.add (local.get $counts) (i32.shl (local.get $t) (i32.const 3))))
        (f64.store (local.get $sp) (f64.add (f64.load (local.get $sp)) (f64.const 1)))
        (local.set $sp (i32.add (local.get $sums) (i32.mul (local.get $t) (local.get $db))))
        (local.set $xp (i32.add (local.get $x) (i32.mul (local.get $i) (local.get $db))))
        (local.set $xend (i32.add (local.get $xp) (i32.shl (local.get $d2) (i32.const 3))))
        (block $uDone
          (loop $uLoop
            (br_if $uDone (i32.ge_u (local.get $xp) (local.get $xend)))
            (v128.store (local.get $sp)
              (f64x2.add (v128.load (local.get $sp)) (v128.load (local.get $xp))))
            (local.set $xp (i32.add (local.get $xp) (i32.const 16)))
            (local.set $sp (i32.add (local.get $sp) (i32.const 16)))
            (br $uLoop)))
        (if (i32.ne (local.get $d2) (local.get $d))
          (then
            (f64.store (local.get $sp)
              (f64.add (f64.load (local.get $sp)) (f64.load (local.get $xp))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $iLoop)))
    (local.get $sse)))
