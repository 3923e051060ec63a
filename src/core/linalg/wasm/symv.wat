;; Symmetric matrix times vector in WebAssembly SIMD (v128 as f64x2), and the two matrix-vector
;; products of the Householder bidiagonalisation: the text source of symv-wasm.ts, which
;; `npm run build:wasm` (scripts/build-wasm.mjs, wabt) regenerates; a test checks the two agree.
;; The matrix lives in this module's memory for the whole Householder tridiagonalisation or
;; bidiagonalisation (linalg/symv-kernel.ts, linalg/eigh-tridiag.ts, linalg/bidiag.ts), so
;; nothing is copied per product but the vector.
;;
;; symv(pa, n, from, pu, pp): p[from..n) ← S·u[from..n) for the symmetric S = A[from.., from..]
;; given by its upper triangle, A row-major n×n at byte offset pa, u and p n-vectors (indexed
;; from 0; only from..n−1 are read or written) at byte offsets pu and pp. Each stored entry
;; a_ij (j ≥ i) is loaded once and serves both halves: a_ij·u_j goes to p_i and, off the
;; diagonal, a_ij·u_i to p_j. Rows go four at a time, columns two per f64x2 lane, so each load of
;; u_j and each load and store of p_j serves eight entries. 4 flops per stored entry.
(module
  (memory (export "memory") 1)
  ;; Row i, columns i … end − 1: p_i += a_ii·u_i + Σ_{i<j<end} a_ij·u_j, p_j += a_ij·u_i.
  (func $row (param $pa i32) (param $n i32) (param $i i32) (param $end i32) (param $pu i32)
    (param $pp i32)
    (local $r i32) (local $j i32) (local $o i32) (local $ui f64) (local $acc f64) (local $x f64)
    (local.set $r (i32.add (local.get $pa)
      (i32.shl (i32.mul (local.get $i) (local.get $n)) (i32.const 3))))
    (local.set $o (i32.shl (local.get $i) (i32.const 3)))
    (local.set $ui (f64.load (i32.add (local.get $pu) (local.get $o))))
    (local.set $acc (f64.mul (f64.load (i32.add (local.get $r) (local.get $o))) (local.get $ui)))
    (local.set $j (i32.add (local.get $i) (i32.const 1)))
    (block $done
      (loop $l
        (br_if $done (i32.ge_s (local.get $j) (local.get $end)))
        (local.set $o (i32.shl (local.get $j) (i32.const 3)))
        (local.set $x (f64.load (i32.add (local.get $r) (local.get $o))))
        (local.set $acc (f64.add (local.get $acc)
          (f64.mul (local.get $x) (f64.load (i32.add (local.get $pu) (local.get $o))))))
        (f64.store (i32.add (local.get $pp) (local.get $o))
          (f64.add (f64.load (i32.add (local.get $pp) (local.get $o)))
            (f64.mul (local.get $x) (local.get $ui))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $l)))
    (local.set $o (i32.add (local.get $pp) (i32.shl (local.get $i) (i32.const 3))))
    (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (local.get $acc))))
  (func (export "symv")
    (param $pa i32) (param $n i32) (param $from i32) (param $pu i32) (param $pp i32)
    (local $i i32) (local $j i32) (local $i4 i32) (local $ld i32) (local $r0 i32) (local $o i32)
    (local $q i32)
    (local $u0 v128) (local $u1 v128) (local $u2 v128) (local $u3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128) (local $uj v128)
    (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $s3 f64)
    (local $y0 f64) (local $y1 f64) (local $y2 f64) (local $y3 f64) (local $t f64)
    ;; p[from..n) ← 0.
    (local.set $j (local.get $from))
    (block $zDone
      (loop $zLoop
        (br_if $zDone (i32.ge_s (local.get $j) (local.get $n)))
        (f64.store (i32.add (local.get $pp) (i32.shl (local.get $j) (i32.const 3))) (f64.const 0))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $zLoop)))
    (local.set $ld (i32.shl (local.get $n) (i32.const 3)))
    (local.set $i (local.get $from))
    (block $iDone
      (loop $iLoop
        (local.set $i4 (i32.add (local.get $i) (i32.const 4)))
        (br_if $iDone (i32.gt_s (local.get $i4) (local.get $n)))
        ;; The 4×4 diagonal block, row by row from its upper triangle.
        (call $row (local.get $pa) (local.get $n) (local.get $i) (local.get $i4) (local.get $pu) (local.get $pp))
        (call $row (local.get $pa) (local.get $n) (i32.add (local.get $i) (i32.const 1)) (local.get $i4) (local.get $pu) (local.get $pp))
        (call $row (local.get $pa) (local.get $n) (i32.add (local.get $i) (i32.const 2)) (local.get $i4) (local.get $pu) (local.get $pp))
        (call $row (local.get $pa) (local.get $n) (i32.add (local.get $i) (i32.const 3)) (local.get $i4) (local.get $pu) (local.get $pp))
        (local.set $r0 (i32.add (local.get $pa) (i32.mul (local.get $i) (local.get $ld))))
        (local.set $o (i32.add (local.get $pu) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $u0 (v128.load64_splat (local.get $o)))
        (local.set $u1 (v128.load64_splat offset=8 (local.get $o)))
        (local.set $u2 (v128.load64_splat offset=16 (local.get $o)))
        (local.set $u3 (v128.load64_splat offset=24 (local.get $o)))
        (local.set $c0 (v128.const i64x2 0 0))
        (local.set $c1 (v128.const i64x2 0 0))
        (local.set $c2 (v128.const i64x2 0 0))
        (local.set $c3 (v128.const i64x2 0 0))
        ;; Columns i + 4 … two at a time: rows i … i + 3 against u_j, and p_j from the four rows.
        (local.set $j (local.get $i4))
        (block $jDone
          (loop $jLoop
            (br_if $jDone (i32.gt_s (i32.add (local.get $j) (i32.const 2)) (local.get $n)))
            (local.set $o (i32.shl (local.get $j) (i32.const 3)))
            (local.set $q (i32.add (local.get $r0) (local.get $o)))
            (local.set $x0 (v128.load (local.get $q)))
            (local.set $q (i32.add (local.get $q) (local.get $ld)))
            (local.set $x1 (v128.load (local.get $q)))
            (local.set $q (i32.add (local.get $q) (local.get $ld)))
            (local.set $x2 (v128.load (local.get $q)))
            (local.set $q (i32.add (local.get $q) (local.get $ld)))
            (local.set $x3 (v128.load (local.get $q)))
            (local.set $uj (v128.load (i32.add (local.get $pu) (local.get $o))))
            (local.set $c0 (f64x2.add (local.get $c0) (f64x2.mul (local.get $x0) (local.get $uj))))
            (local.set $c1 (f64x2.add (local.get $c1) (f64x2.mul (local.get $x1) (local.get $uj))))
            (local.set $c2 (f64x2.add (local.get $c2) (f64x2.mul (local.get $x2) (local.get $uj))))
            (local.set $c3 (f64x2.add (local.get $c3) (f64x2.mul (local.get $x3) (local.get $uj))))
            (local.set $q (i32.add (local.get $pp) (local.get $o)))
            (v128.store (local.get $q)
              (f64x2.add (v128.load (local.get $q))
                (f64x2.add
                  (f64x2.add (f64x2.mul (local.get $x0) (local.get $u0)) (f64x2.mul (local.get $x1) (local.get $u1)))
                  (f64x2.add (f64x2.mul (local.get $x2) (local.get $u2)) (f64x2.mul (local.get $x3) (local.get $u3))))))
            (local.set $j (i32.add (local.get $j) (i32.const 2)))
            (br $jLoop)))
        (local.set $s0 (f64.add (f64x2.extract_lane 0 (local.get $c0)) (f64x2.extract_lane 1 (local.get $c0))))
        (local.set $s1 (f64.add (f64x2.extract_lane 0 (local.get $c1)) (f64x2.extract_lane 1 (local.get $c1))))
        (local.set $s2 (f64.add (f64x2.extract_lane 0 (local.get $c2)) (f64x2.extract_lane 1 (local.get $c2))))
        (local.set $s3 (f64.add (f64x2.extract_lane 0 (local.get $c3)) (f64x2.extract_lane 1 (local.get $c3))))
        ;; An odd last column.
        (if (i32.lt_s (local.get $j) (local.get $n))
          (then
            (local.set $o (i32.shl (local.get $j) (i32.const 3)))
            (local.set $q (i32.add (local.get $r0) (local.get $o)))
            (local.set $y0 (f64.load (local.get $q)))
            (local.set $q (i32.add (local.get $q) (local.get $ld)))
            (local.set $y1 (f64.load (local.get $q)))
            (local.set $q (i32.add (local.get $q) (local.get $ld)))
            (local.set $y2 (f64.load (local.get $q)))
            (local.set $q (i32.add (local.get $q) (local.get $ld)))
            (local.set $y3 (f64.load (local.get $q)))
            (local.set $t (f64.load (i32.add (local.get $pu) (local.get $o))))
            (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $y0) (local.get $t))))
            (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $y1) (local.get $t))))
            (local.set $s2 (f64.add (local.get $s2) (f64.mul (local.get $y2) (local.get $t))))
            (local.set $s3 (f64.add (local.get $s3) (f64.mul (local.get $y3) (local.get $t))))
            (local.set $q (i32.add (local.get $pp) (local.get $o)))
            (f64.store (local.get $q)
              (f64.add (f64.load (local.get $q))
                (f64.add
                  (f64.add
                    (f64.mul (local.get $y0) (f64x2.extract_lane 0 (local.get $u0)))
                    (f64.mul (local.get $y1) (f64x2.extract_lane 0 (local.get $u1))))
                  (f64.add
                    (f64.mul (local.get $y2) (f64x2.extract_lane 0 (local.get $u2)))
                    (f64.mul (local.get $y3) (f64x2.extract_lane 0 (local.get $u3)))))))))
        (local.set $o (i32.add (local.get $pp) (i32.shl (local.get $i) (i32.const 3))))
        (f64.store (local.get $o) (f64.add (f64.load (local.get $o)) (local.get $s0)))
        (f64.store offset=8 (local.get $o) (f64.add (f64.load offset=8 (local.get $o)) (local.get $s1)))
        (f64.store offset=16 (local.get $o) (f64.add (f64.load offset=16 (local.get $o)) (local.get $s2)))
        (f64.store offset=24 (local.get $o) (f64.add (f64.load offset=24 (local.get $o)) (local.get $s3)))
        (local.set $i (local.get $i4))
        (br $iLoop)))
    ;; The last rows (fewer than four), one at a time.
    (block $rDone
      (loop $rLoop
        (br_if $rDone (i32.ge_s (local.get $i) (local.get $n)))
        (call $row (local.get $pa) (local.get $n) (local.get $i) (local.get $n) (local.get $pu) (local.get $pp))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rLoop))))
;; gemvT(pa, ld, r0, r1, c0, c1, pu, py): y[c] += Σ_{r0≤r<r1} u_r·A[r, c] for c0 ≤ c < c1, A
;; row-major with ld columns at byte offset pa, u and y indexed globally (u_r at pu + 8r, y_c at
;; py + 8c). Rows two at a time, y_c ← y_c + (u_r·a_rc + u_{r+1}·a_{r+1,c}), the last odd row
;; alone, y_c ← y_c + u_r·a_rc; columns two per f64x2 lane, each lane the same IEEE operations
;; as the scalar loop (bidiag.ts's TypeScript panel), so the results agree bit for bit.
  (func (export "gemvT")
    (param $pa i32) (param $ld i32) (param $r0 i32) (param $r1 i32) (param $c0 i32) (param $c1 i32)
    (param $pu i32) (param $py i32)
    (local $r i32) (local $c i32) (local $ar i32) (local $br i32) (local $ldb i32) (local $o i32)
    (local $u0 v128) (local $u1 v128)
    (local.set $ldb (i32.shl (local.get $ld) (i32.const 3)))
    (local.set $r (local.get $r0))
    (block $pDone
      (loop $pLoop
        (br_if $pDone (i32.ge_s (i32.add (local.get $r) (i32.const 1)) (local.get $r1)))
        (local.set $ar (i32.add (local.get $pa) (i32.mul (local.get $r) (local.get $ldb))))
        (local.set $br (i32.add (local.get $ar) (local.get $ldb)))
        (local.set $u0 (v128.load64_splat (i32.add (local.get $pu) (i32.shl (local.get $r) (i32.const 3)))))
        (local.set $u1 (v128.load64_splat offset=8 (i32.add (local.get $pu) (i32.shl (local.get $r) (i32.const 3)))))
        (local.set $c (local.get $c0))
        (block $cDone
          (loop $cLoop
            (br_if $cDone (i32.ge_s (i32.add (local.get $c) (i32.const 1)) (local.get $c1)))
            (local.set $o (i32.shl (local.get $c) (i32.const 3)))
            (v128.store (i32.add (local.get $py) (local.get $o))
              (f64x2.add (v128.load (i32.add (local.get $py) (local.get $o)))
                (f64x2.add
                  (f64x2.mul (local.get $u0) (v128.load (i32.add (local.get $ar) (local.get $o))))
                  (f64x2.mul (local.get $u1) (v128.load (i32.add (local.get $br) (local.get $o)))))))
            (local.set $c (i32.add (local.get $c) (i32.const 2)))
            (br $cLoop)))
        (if (i32.lt_s (local.get $c) (local.get $c1))
          (then
            (local.set $o (i32.shl (local.get $c) (i32.const 3)))
            (f64.store (i32.add (local.get $py) (local.get $o))
              (f64.add (f64.load (i32.add (local.get $py) (local.get $o)))
                (f64.add
                  (f64.mul (f64x2.extract_lane 0 (local.get $u0)) (f64.load (i32.add (local.get $ar) (local.get $o))))
                  (f64.mul (f64x2.extract_lane 0 (local.get $u1)) (f64.load (i32.add (local.get $br) (local.get $o)))))))))
        (local.set $r (i32.add (local.get $r) (i32.const 2)))
        (br $pLoop)))
    (if (i32.lt_s (local.get $r) (local.get $r1))
      (then
        (local.set $ar (i32.add (local.get $pa) (i32.mul (local.get $r) (local.get $ldb))))
        (local.set $u0 (v128.load64_splat (i32.add (local.get $pu) (i32.shl (local.get $r) (i32.const 3)))))
        (local.set $c (local.get $c0))
        (block $sDone
          (loop $sLoop
            (br_if $sDone (i32.ge_s (i32.add (local.get $c) (i32.const 1)) (local.get $c1)))
            (local.set $o (i32.shl (local.get $c) (i32.const 3)))
            (v128.store (i32.add (local.get $py) (local.get $o))
              (f64x2.add (v128.load (i32.add (local.get $py) (local.get $o)))
                (f64x2.mul (local.get $u0) (v128.load (i32.add (local.get $ar) (local.get $o))))))
            (local.set $c (i32.add (local.get $c) (i32.const 2)))
            (br $sLoop)))
        (if (i32.lt_s (local.get $c) (local.get $c1))
          (then
            (local.set $o (i32.shl (local.get $c) (i32.const 3)))
            (f64.store (i32.add (local.get $py) (local.get $o))
              (f64.add (f64.load (i32.add (local.get $py) (local.get $o)))
                (f64.mul (f64x2.extract_lane 0 (local.get $u0)) (f64.load (i32.add (local.get $ar) (local.get $o)))))))))))
  ;; gemv(pa, ld, r0, r1, c0, c1, pv, px): x_r ← Σ_{c0≤c<c1} A[r, c]·v_c for r0 ≤ r < r1 (A as in
  ;; gemvT, v_c at pv + 8c, x_r at px + 8r), each sum from 0 in order of c with a rounded
  ;; product and a rounded sum per step, as the scalar loop; four rows at a time (four
  ;; independent sums), the rest one by one.
  (func (export "gemv")
    (param $pa i32) (param $ld i32) (param $r0 i32) (param $r1 i32) (param $c0 i32) (param $c1 i32)
    (param $pv i32) (param $px i32)
    (local $r i32) (local $o i32) (local $oEnd i32) (local $a0 i32) (local $ldb i32) (local $vc f64)
    (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $s3 f64)
    (local.set $ldb (i32.shl (local.get $ld) (i32.const 3)))
    (local.set $r (local.get $r0))
    (block $qDone
      (loop $qLoop
        (br_if $qDone (i32.gt_s (i32.add (local.get $r) (i32.const 4)) (local.get $r1)))
        ;; a0: row r's entry of column c0; o walks the byte offset of column c from c0.
        (local.set $a0 (i32.add (i32.add (local.get $pa) (i32.mul (local.get $r) (local.get $ldb)))
          (i32.shl (local.get $c0) (i32.const 3))))
        (local.set $o (i32.shl (local.get $c0) (i32.const 3)))
        (local.set $oEnd (i32.shl (local.get $c1) (i32.const 3)))
        (local.set $s0 (f64.const 0))
        (local.set $s1 (f64.const 0))
        (local.set $s2 (f64.const 0))
        (local.set $s3 (f64.const 0))
        (block $cDone
          (loop $cLoop
            (br_if $cDone (i32.ge_s (local.get $o) (local.get $oEnd)))
            (local.set $vc (f64.load (i32.add (local.get $pv) (local.get $o))))
            (local.set $s0 (f64.add (local.get $s0) (f64.mul (f64.load (local.get $a0)) (local.get $vc))))
            (local.set $s1 (f64.add (local.get $s1)
              (f64.mul (f64.load (i32.add (local.get $a0) (local.get $ldb))) (local.get $vc))))
            (local.set $s2 (f64.add (local.get $s2)
              (f64.mul (f64.load (i32.add (local.get $a0) (i32.shl (local.get $ldb) (i32.const 1)))) (local.get $vc))))
            (local.set $s3 (f64.add (local.get $s3)
              (f64.mul (f64.load (i32.add (local.get $a0) (i32.mul (local.get $ldb) (i32.const 3)))) (local.get $vc))))
            (local.set $a0 (i32.add (local.get $a0) (i32.const 8)))
            (local.set $o (i32.add (local.get $o) (i32.const 8)))
            (br $cLoop)))
        (local.set $o (i32.add (local.get $px) (i32.shl (local.get $r) (i32.const 3))))
        (f64.store (local.get $o) (local.get $s0))
        (f64.store offset=8 (local.get $o) (local.get $s1))
        (f64.store offset=16 (local.get $o) (local.get $s2))
        (f64.store offset=24 (local.get $o) (local.get $s3))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $qLoop)))
    (block $rDone
      (loop $rLoop
        (br_if $rDone (i32.ge_s (local.get $r) (local.get $r1)))
        (local.set $a0 (i32.add (i32.add (local.get $pa) (i32.mul (local.get $r) (local.get $ldb)))
          (i32.shl (local.get $c0) (i32.const 3))))
        (local.set $o (i32.shl (local.get $c0) (i32.const 3)))
        (local.set $oEnd (i32.shl (local.get $c1) (i32.const 3)))
        (local.set $s0 (f64.const 0))
        (block $sDone
          (loop $sLoop
            (br_if $sDone (i32.ge_s (local.get $o) (local.get $oEnd)))
            (local.set $s0 (f64.add (local.get $s0)
              (f64.mul (f64.load (local.get $a0)) (f64.load (i32.add (local.get $pv) (local.get $o))))))
            (local.set $a0 (i32.add (local.get $a0) (i32.const 8)))
            (local.set $o (i32.add (local.get $o) (i32.const 8)))
            (br $sLoop)))
        (f64.store (i32.add (local.get $px) (i32.shl (local.get $r) (i32.const 3))) (local.get $s0))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rLoop))))
;; rank2(px, py, ldb, count, c0, c1, pal, pbe, cs, pout): for j = 0 … count−1 in turn and
;; c0 ≤ c < c1, out_c ← out_c − (X_j[c]·α_j + Y_j[c]·β_j), X_j the row at byte offset px + j·ldb
;; (entry c at + 8c), Y_j likewise from py, α_j at pal + j·cs, β_j at pbe + j·cs, out_c at
;; pout + 8c: the panel updates of the tridiagonalisation (eigh-tridiag.ts), with each entry's
;; operations those of its TypeScript loop; columns two per f64x2 lane.
  (func (export "rank2")
    (param $px i32) (param $py i32) (param $ldb i32) (param $count i32) (param $c0 i32)
    (param $c1 i32) (param $pal i32) (param $pbe i32) (param $cs i32) (param $pout i32)
    (local $j i32) (local $c i32) (local $o i32) (local $x i32) (local $y i32)
    (local $al v128) (local $be v128)
    (local.set $j (i32.const 0))
    (block $jDone
      (loop $jLoop
        (br_if $jDone (i32.ge_s (local.get $j) (local.get $count)))
        (local.set $x (i32.add (local.get $px) (i32.mul (local.get $j) (local.get $ldb))))
        (local.set $y (i32.add (local.get $py) (i32.mul (local.get $j) (local.get $ldb))))
        (local.set $al (v128.load64_splat (i32.add (local.get $pal) (i32.mul (local.get $j) (local.get $cs)))))
        (local.set $be (v128.load64_splat (i32.add (local.get $pbe) (i32.mul (local.get $j) (local.get $cs)))))
        (local.set $c (local.get $c0))
        (block $cDone
          (loop $cLoop
            (br_if $cDone (i32.ge_s (i32.add (local.get $c) (i32.const 1)) (local.get $c1)))
            (local.set $o (i32.shl (local.get $c) (i32.const 3)))
            (v128.store (i32.add (local.get $pout) (local.get $o))
              (f64x2.sub (v128.load (i32.add (local.get $pout) (local.get $o)))
                (f64x2.add
                  (f64x2.mul (v128.load (i32.add (local.get $x) (local.get $o))) (local.get $al))
                  (f64x2.mul (v128.load (i32.add (local.get $y) (local.get $o))) (local.get $be)))))
            (local.set $c (i32.add (local.get $c) (i32.const 2)))
            (br $cLoop)))
        (if (i32.lt_s (local.get $c) (local.get $c1))
          (then
            (local.set $o (i32.shl (local.get $c) (i32.const 3)))
            (f64.store (i32.add (local.get $pout) (local.get $o))
              (f64.sub (f64.load (i32.add (local.get $pout) (local.get $o)))
                (f64.add
                  (f64.mul (f64.load (i32.add (local.get $x) (local.get $o))) (f64x2.extract_lane 0 (local.get $al)))
                  (f64.mul (f64.load (i32.add (local.get $y) (local.get $o))) (f64x2.extract_lane 0 (local.get $be))))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $jLoop)))))
