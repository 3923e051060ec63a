;; Sparse (CSR) times dense block in WebAssembly SIMD (v128 as f64x2): the text source of
;; csr-wasm.ts, which `npm run build:wasm` (scripts/build-wasm.mjs, wabt) regenerates; a test
;; checks the two agree. The copying in and out stays in TypeScript (linalg/csr-kernel.ts).
;;
;; spmm(pp, pi, pv, px, py, rows, b): Y ← S·X for S (rows × ·) in CSR and X, Y row-major with b
;; f64 per row, all in this module's memory at byte offsets: pp the rows + 1 row pointers (i32),
;; pi the column indices (i32), pv the values (f64), px X, py Y. Y is written, never read.
;;
;; rows(src, dst, perm, n, b, scatter): moves n rows of b f64 between src and dst through the i32
;; permutation at perm: dst row i ← src row perm[i] (scatter = 0), or dst row perm[i] ← src row i
;; (scatter ≠ 0). Copies bits (f64 load and store), so values are unchanged.
;;
;; cheb(pp, pi, pv, pcur, pprev, pt, pnext, pscr, rows, b, c, f, g, flags): one step of a
;; Chebyshev filter on blocks held in this memory, next ← f·((S·cur − T) − c·cur) − g·prev, where
;; the T term is present when flags bit 1 is set and the prev term when bit 0 is. By chunks of 64
;; rows: spmm of the chunk into the scratch at pscr (64·b f64), then the combination over the
;; chunk's contiguous 64·b values, two at a time. Separate IEEE operations in the order of
;; blockeig-filter.ts's applyShifted (subtract T) and combine (f·(z − c·y) − g·x), so the same bits.
;;
;; defl(px, pcur, pt, pc, pd, rows, nc, b): the deflation term of the filter (blockeig-filter.ts),
;; T ← X·diag(d)·(Xᵀ·cur) for X (rows × nc) at px, cur and T (rows × b) at pcur and pt, d (nc) at
;; pd and the scratch C (nc × b) at pc. C[p, :] is summed from zero over the rows in order (each
;; term x·y then +), scaled by d[p], and T[i, j] = Σ_p X[i, p]·C[p, j] from zero in p's order:
;; separate IEEE operations, two columns per f64x2, the same bits as `deflateTs` in csr-kernel.ts.
;;
;; Row i of Y is Σ_p v_p · X[i_p, :] over the row's entries. The columns go 8 at a time (four
;; f64x2 accumulators), then 4, 2 and 1 (as csrTimesBlock in linop.ts): each entry costs one
;; splat and, per pair of columns, one load, one f64x2.mul and one f64x2.add. Products and sums
;; are separate IEEE operations (no fused multiply-add), summed from zero in the order of the
;; row's entries, so every value equals the TypeScript kernel's bit for bit. 2·nnz·b flops.
(module
  (memory (export "memory") 1)
  (func (export "rows")
    (param $src i32) (param $dst i32) (param $perm i32) (param $n i32) (param $b i32)
    (param $scatter i32)
    (local $i i32) (local $j i32) (local $from i32) (local $to i32) (local $bBytes i32)
    (local.set $bBytes (i32.shl (local.get $b) (i32.const 3)))
    (local.set $i (i32.const 0))
    (block $iDone
      (loop $iLoop
        (br_if $iDone (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $from (i32.mul (local.get $i) (local.get $bBytes)))
        (local.set $to (i32.mul
          (i32.load (i32.add (local.get $perm) (i32.shl (local.get $i) (i32.const 2))))
          (local.get $bBytes)))
        (if (i32.eqz (local.get $scatter))
          (then
            ;; gather: dst row i ← src row perm[i]
            (local.set $j (local.get $to))
            (local.set $to (local.get $from))
            (local.set $from (local.get $j))))
        (local.set $from (i32.add (local.get $src) (local.get $from)))
        (local.set $to (i32.add (local.get $dst) (local.get $to)))
        (local.set $j (i32.const 0))
        (block $jDone
          (loop $jLoop
            (br_if $jDone (i32.ge_s (local.get $j) (local.get $bBytes)))
            (f64.store (i32.add (local.get $to) (local.get $j))
              (f64.load (i32.add (local.get $from) (local.get $j))))
            (local.set $j (i32.add (local.get $j) (i32.const 8)))
            (br $jLoop)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $iLoop))))
  (func $spmm (export "spmm")
    (param $pp i32) (param $pi i32) (param $pv i32) (param $px i32) (param $py i32)
    (param $rows i32) (param $b i32)
    (local $i i32) (local $j i32) (local $p i32) (local $p1 i32) (local $p0 i32)
    (local $bBytes i32) (local $y i32) (local $o i32)
    (local $a v128) (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $t f64)
    (local.set $bBytes (i32.shl (local.get $b) (i32.const 3)))
    (local.set $i (i32.const 0))
    (block $iDone
      (loop $iLoop
        (br_if $iDone (i32.ge_s (local.get $i) (local.get $rows)))
        ;; Entries p0 … p1 − 1 of row i, as byte offsets into the value array's index.
        (local.set $p0 (i32.load (i32.add (local.get $pp) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $p1 (i32.load offset=4 (i32.add (local.get $pp) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $y (i32.add (local.get $py) (i32.mul (local.get $i) (local.get $bBytes))))
        (local.set $j (i32.const 0))
        ;; Eight columns at a time.
        (block $j8Done
          (loop $j8Loop
            (br_if $j8Done (i32.gt_s (i32.add (local.get $j) (i32.const 8)) (local.get $b)))
            (local.set $s0 (v128.const i64x2 0 0))
            (local.set $s1 (v128.const i64x2 0 0))
            (local.set $s2 (v128.const i64x2 0 0))
            (local.set $s3 (v128.const i64x2 0 0))
            (local.set $p (local.get $p0))
            (block $pDone
              (loop $pLoop
                (br_if $pDone (i32.ge_s (local.get $p) (local.get $p1)))
                (local.set $a (v128.load64_splat (i32.add (local.get $pv) (i32.shl (local.get $p) (i32.const 3)))))
                (local.set $o (i32.add (local.get $px)
                  (i32.shl
                    (i32.add (i32.mul (i32.load (i32.add (local.get $pi) (i32.shl (local.get $p) (i32.const 2)))) (local.get $b)) (local.get $j))
                    (i32.const 3))))
                (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $a) (v128.load (local.get $o)))))
                (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $a) (v128.load offset=16 (local.get $o)))))
                (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (local.get $a) (v128.load offset=32 (local.get $o)))))
                (local.set $s3 (f64x2.add (local.get $s3) (f64x2.mul (local.get $a) (v128.load offset=48 (local.get $o)))))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $pLoop)))
            (local.set $o (i32.add (local.get $y) (i32.shl (local.get $j) (i32.const 3))))
            (v128.store (local.get $o) (local.get $s0))
            (v128.store offset=16 (local.get $o) (local.get $s1))
            (v128.store offset=32 (local.get $o) (local.get $s2))
            (v128.store offset=48 (local.get $o) (local.get $s3))
            (local.set $j (i32.add (local.get $j) (i32.const 8)))
            (br $j8Loop)))
        ;; Four columns.
        (if (i32.le_s (i32.add (local.get $j) (i32.const 4)) (local.get $b))
          (then
            (local.set $s0 (v128.const i64x2 0 0))
            (local.set $s1 (v128.const i64x2 0 0))
            (local.set $p (local.get $p0))
            (block $pDone
              (loop $pLoop
                (br_if $pDone (i32.ge_s (local.get $p) (local.get $p1)))
                (local.set $a (v128.load64_splat (i32.add (local.get $pv) (i32.shl (local.get $p) (i32.const 3)))))
                (local.set $o (i32.add (local.get $px)
                  (i32.shl
                    (i32.add (i32.mul (i32.load (i32.add (local.get $pi) (i32.shl (local.get $p) (i32.const 2)))) (local.get $b)) (local.get $j))
                    (i32.const 3))))
                (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $a) (v128.load (local.get $o)))))
                (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $a) (v128.load offset=16 (local.get $o)))))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $pLoop)))
            (local.set $o (i32.add (local.get $y) (i32.shl (local.get $j) (i32.const 3))))
            (v128.store (local.get $o) (local.get $s0))
            (v128.store offset=16 (local.get $o) (local.get $s1))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))))
        ;; Two columns.
        (if (i32.le_s (i32.add (local.get $j) (i32.const 2)) (local.get $b))
          (then
            (local.set $s0 (v128.const i64x2 0 0))
            (local.set $p (local.get $p0))
            (block $pDone
              (loop $pLoop
                (br_if $pDone (i32.ge_s (local.get $p) (local.get $p1)))
                (local.set $a (v128.load64_splat (i32.add (local.get $pv) (i32.shl (local.get $p) (i32.const 3)))))
                (local.set $o (i32.add (local.get $px)
                  (i32.shl
                    (i32.add (i32.mul (i32.load (i32.add (local.get $pi) (i32.shl (local.get $p) (i32.const 2)))) (local.get $b)) (local.get $j))
                    (i32.const 3))))
                (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $a) (v128.load (local.get $o)))))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $pLoop)))
            (v128.store (i32.add (local.get $y) (i32.shl (local.get $j) (i32.const 3))) (local.get $s0))
            (local.set $j (i32.add (local.get $j) (i32.const 2)))))
        ;; The last column.
        (if (i32.lt_s (local.get $j) (local.get $b))
          (then
            (local.set $t (f64.const 0))
            (local.set $p (local.get $p0))
            (block $pDone
              (loop $pLoop
                (br_if $pDone (i32.ge_s (local.get $p) (local.get $p1)))
                (local.set $t (f64.add (local.get $t)
                  (f64.mul
                    (f64.load (i32.add (local.get $pv) (i32.shl (local.get $p) (i32.const 3))))
                    (f64.load (i32.add (local.get $px)
                      (i32.shl
                        (i32.add (i32.mul (i32.load (i32.add (local.get $pi) (i32.shl (local.get $p) (i32.const 2)))) (local.get $b)) (local.get $j))
                        (i32.const 3)))))))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $pLoop)))
            (f64.store (i32.add (local.get $y) (i32.shl (local.get $j) (i32.const 3))) (local.get $t))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $iLoop))))
  ;; One Chebyshev step (see the header).
  (func (export "cheb")
    (param $pp i32) (param $pi i32) (param $pv i32) (param $pcur i32) (param $pprev i32)
    (param $pt i32) (param $pnext i32) (param $pscr i32) (param $rows i32) (param $b i32)
    (param $c f64) (param $f f64) (param $g f64) (param $flags i32)
    (local $r0 i32) (local $m i32) (local $e i32) (local $k i32) (local $off i32) (local $base i32)
    (local $vc v128) (local $vf v128) (local $vg v128) (local $v v128) (local $x f64)
    (local.set $vc (f64x2.splat (local.get $c)))
    (local.set $vf (f64x2.splat (local.get $f)))
    (local.set $vg (f64x2.splat (local.get $g)))
    (local.set $r0 (i32.const 0))
    (block $done
      (loop $chunk
        (br_if $done (i32.ge_s (local.get $r0) (local.get $rows)))
        (local.set $m (i32.sub (local.get $rows) (local.get $r0)))
        (if (i32.gt_s (local.get $m) (i32.const 64)) (then (local.set $m (i32.const 64))))
        (call $spmm
          (i32.add (local.get $pp) (i32.shl (local.get $r0) (i32.const 2)))
          (local.get $pi) (local.get $pv) (local.get $pcur) (local.get $pscr)
          (local.get $m) (local.get $b))
        ;; Byte offset of the chunk's first row in the blocks, and the chunk's length in bytes.
        (local.set $base (i32.shl (i32.mul (local.get $r0) (local.get $b)) (i32.const 3)))
        (local.set $e (i32.shl (i32.mul (local.get $m) (local.get $b)) (i32.const 3)))
        (local.set $k (i32.const 0))
        (block $vDone
          (loop $vLoop
            (br_if $vDone (i32.gt_s (i32.add (local.get $k) (i32.const 16)) (local.get $e)))
            (local.set $off (i32.add (local.get $base) (local.get $k)))
            (local.set $v (v128.load (i32.add (local.get $pscr) (local.get $k))))
            (if (i32.and (local.get $flags) (i32.const 2))
              (then
                (local.set $v (f64x2.sub (local.get $v)
                  (v128.load (i32.add (local.get $pt) (local.get $off)))))))
            (local.set $v (f64x2.mul (local.get $vf)
              (f64x2.sub (local.get $v)
                (f64x2.mul (local.get $vc) (v128.load (i32.add (local.get $pcur) (local.get $off)))))))
            (if (i32.and (local.get $flags) (i32.const 1))
              (then
                (local.set $v (f64x2.sub (local.get $v)
                  (f64x2.mul (local.get $vg) (v128.load (i32.add (local.get $pprev) (local.get $off))))))))
            (v128.store (i32.add (local.get $pnext) (local.get $off)) (local.get $v))
            (local.set $k (i32.add (local.get $k) (i32.const 16)))
            (br $vLoop)))
        ;; An odd last value.
        (if (i32.lt_s (local.get $k) (local.get $e))
          (then
            (local.set $off (i32.add (local.get $base) (local.get $k)))
            (local.set $x (f64.load (i32.add (local.get $pscr) (local.get $k))))
            (if (i32.and (local.get $flags) (i32.const 2))
              (then
                (local.set $x (f64.sub (local.get $x)
                  (f64.load (i32.add (local.get $pt) (local.get $off)))))))
            (local.set $x (f64.mul (local.get $f)
              (f64.sub (local.get $x)
                (f64.mul (local.get $c) (f64.load (i32.add (local.get $pcur) (local.get $off)))))))
            (if (i32.and (local.get $flags) (i32.const 1))
              (then
                (local.set $x (f64.sub (local.get $x)
                  (f64.mul (local.get $g) (f64.load (i32.add (local.get $pprev) (local.get $off))))))))
            (f64.store (i32.add (local.get $pnext) (local.get $off)) (local.get $x))))
        (local.set $r0 (i32.add (local.get $r0) (i32.const 64)))
        (br $chunk))))

  ;; The deflation term (see the header).
  (func (export "defl")
    (param $px i32) (param $pcur i32) (param $pt i32) (param $pc i32) (param $pd i32)
    (param $rows i32) (param $nc i32) (param $b i32)
    (local $i i32) (local $p i32) (local $j i32) (local $k i32) (local $bBytes i32) (local $b2 i32)
    (local $xr i32) (local $yr i32) (local $cr i32) (local $o i32)
    (local $x v128) (local $s v128) (local $xs f64) (local $t f64)
    (local.set $bBytes (i32.shl (local.get $b) (i32.const 3)))
    (local.set $b2 (i32.and (local.get $b) (i32.const -2)))
    ;; C ← 0.
    (local.set $k (i32.const 0))
    (block $zDone
      (loop $zLoop
        (br_if $zDone (i32.ge_s (local.get $k) (i32.mul (local.get $nc) (local.get $bBytes))))
        (f64.store (i32.add (local.get $pc) (local.get $k)) (f64.const 0))
        (local.set $k (i32.add (local.get $k) (i32.const 8)))
        (br $zLoop)))
    ;; C[p, :] += X[i, p]·cur[i, :], rows in order.
    (local.set $i (i32.const 0))
    (block $iDone
      (loop $iLoop
        (br_if $iDone (i32.ge_s (local.get $i) (local.get $rows)))
        (local.set $xr (i32.add (local.get $px) (i32.shl (i32.mul (local.get $i) (local.get $nc)) (i32.const 3))))
        (local.set $yr (i32.add (local.get $pcur) (i32.mul (local.get $i) (local.get $bBytes))))
        (local.set $p (i32.const 0))
        (block $pDone
          (loop $pLoop
            (br_if $pDone (i32.ge_s (local.get $p) (local.get $nc)))
            (local.set $xs (f64.load (i32.add (local.get $xr) (i32.shl (local.get $p) (i32.const 3)))))
            (local.set $x (f64x2.splat (local.get $xs)))
            (local.set $cr (i32.add (local.get $pc) (i32.mul (local.get $p) (local.get $bBytes))))
            (local.set $j (i32.const 0))
            (block $jDone
              (loop $jLoop
                (br_if $jDone (i32.ge_s (local.get $j) (local.get $b2)))
                (local.set $o (i32.shl (local.get $j) (i32.const 3)))
                (v128.store (i32.add (local.get $cr) (local.get $o))
                  (f64x2.add (v128.load (i32.add (local.get $cr) (local.get $o)))
                    (f64x2.mul (local.get $x) (v128.load (i32.add (local.get $yr) (local.get $o))))))
                (local.set $j (i32.add (local.get $j) (i32.const 2)))
                (br $jLoop)))
            (if (i32.lt_s (local.get $j) (local.get $b))
              (then
                (local.set $o (i32.shl (local.get $j) (i32.const 3)))
                (f64.store (i32.add (local.get $cr) (local.get $o))
                  (f64.add (f64.load (i32.add (local.get $cr) (local.get $o)))
                    (f64.mul (local.get $xs) (f64.load (i32.add (local.get $yr) (local.get $o))))))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $pLoop)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $iLoop)))
    ;; C[p, :] ← d[p]·C[p, :].
    (local.set $p (i32.const 0))
    (block $sDone
      (loop $sLoop
        (br_if $sDone (i32.ge_s (local.get $p) (local.get $nc)))
        (local.set $xs (f64.load (i32.add (local.get $pd) (i32.shl (local.get $p) (i32.const 3)))))
        (local.set $cr (i32.add (local.get $pc) (i32.mul (local.get $p) (local.get $bBytes))))
        (local.set $k (i32.const 0))
        (block $kDone
          (loop $kLoop
            (br_if $kDone (i32.ge_s (local.get $k) (local.get $bBytes)))
            (f64.store (i32.add (local.get $cr) (local.get $k))
              (f64.mul (f64.load (i32.add (local.get $cr) (local.get $k))) (local.get $xs)))
            (local.set $k (i32.add (local.get $k) (i32.const 8)))
            (br $kLoop)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $sLoop)))
    ;; T[i, :] ← Σ_p X[i, p]·C[p, :].
    (local.set $i (i32.const 0))
    (block $tDone
      (loop $tLoop
        (br_if $tDone (i32.ge_s (local.get $i) (local.get $rows)))
        (local.set $xr (i32.add (local.get $px) (i32.shl (i32.mul (local.get $i) (local.get $nc)) (i32.const 3))))
        (local.set $yr (i32.add (local.get $pt) (i32.mul (local.get $i) (local.get $bBytes))))
        (local.set $j (i32.const 0))
        (block $jDone
          (loop $jLoop
            (br_if $jDone (i32.ge_s (local.get $j) (local.get $b2)))
            (local.set $o (i32.shl (local.get $j) (i32.const 3)))
            (local.set $s (v128.const i64x2 0 0))
            (local.set $p (i32.const 0))
            (block $pDone
              (loop $pLoop
                (br_if $pDone (i32.ge_s (local.get $p) (local.get $nc)))
                (local.set $s (f64x2.add (local.get $s)
                  (f64x2.mul
                    (v128.load64_splat (i32.add (local.get $xr) (i32.shl (local.get $p) (i32.const 3))))
                    (v128.load (i32.add (i32.add (local.get $pc) (i32.mul (local.get $p) (local.get $bBytes))) (local.get $o))))))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $pLoop)))
            (v128.store (i32.add (local.get $yr) (local.get $o)) (local.get $s))
            (local.set $j (i32.add (local.get $j) (i32.const 2)))
            (br $jLoop)))
        (if (i32.lt_s (local.get $j) (local.get $b))
          (then
            (local.set $o (i32.shl (local.get $j) (i32.const 3)))
            (local.set $t (f64.const 0))
            (local.set $p (i32.const 0))
            (block $pDone
              (loop $pLoop
                (br_if $pDone (i32.ge_s (local.get $p) (local.get $nc)))
                (local.set $t (f64.add (local.get $t)
                  (f64.mul
                    (f64.load (i32.add (local.get $xr) (i32.shl (local.get $p) (i32.const 3))))
                    (f64.load (i32.add (i32.add (local.get $pc) (i32.mul (local.get $p) (local.get $bBytes))) (local.get $o))))))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $pLoop)))
            (f64.store (i32.add (local.get $yr) (local.get $o)) (local.get $t))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $tLoop))))
)
