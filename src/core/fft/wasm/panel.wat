;; The panel passes of the mixed-radix FFT (radices 2, 3, 4, 5, 8) in WebAssembly SIMD: the text
;; source of panel-wasm.ts, which `npm run build:wasm` (scripts/build-wasm.mjs, wabt)
;; regenerates; a test checks the two agree. `panel-run.ts` lays out the memory and drives the
;; passes; `panel.ts` is the TypeScript these mirror.
;;
;; passP(c, h, tw, ido, l1, count): one pass of radix P over a panel of `count` signals, from the
;; panel at byte offset c to the one at h (both element-interleaved complex: element j of signal
;; b is the f64x2 (re, im) at 16·(j·count + b)), with the stage's twiddles at tw (leg m of
;; position i: the f64x2 (cos, sin) at tw + 16·((P − 1)·i + m − 1)). It reads
;; cc(i, j, k) at c + 16·count·(i + ido·(j + P·k)) + 16b and writes ch(i, k, m) at
;; h + 16·count·(i + ido·(k + l1·m)) + 16b, as panel.ts.
;;
;; Every complex value is one f64x2, and every operation is the one panel.ts performs on each of
;; its halves, in the same order, without fused multiply-adds: each signal gets the bits the
;; TypeScript pass gives it. The multiplications by ∓i are lane swaps whose sign change is a
;; product with ±1 (exact) and then the same addition or subtraction (x − y is x + (−y) in IEEE
;; arithmetic); where panel.ts forms a difference in the other order (radix 8's x6r − x2r) the
;; lanes are gathered so that the same difference is taken. The twiddle product
;; (yr·wr + yi·wi, yi·wr − yr·wi) is y·(wr, wr) + swap(y)·(wi, −wi). With ido = 1 the outputs are
;; stored untwiddled, as panel.ts' `put` does.
;;
;; Constants at fixed offsets, which panel-run.ts writes (the same doubles panel.ts uses):
;;   0: (C1, C1)  16: (C2, C2)  32: (S1, S1)  48: (S2, S2)   cos and sin of 2π/5, 4π/5
;;   64: (SIN60, SIN60)  80: (R, R)  96: (1, −1)  112: (R, −R)  128: (−1, 1)  144: (0.5, 0.5)
(module
  (import "env" "memory" (memory 1))

  (func (export "pass2")
    (param $c i32) (param $h i32) (param $tw i32) (param $ido i32) (param $l1 i32)
    (param $count i32)
    (local $W i32) (local $s i32) (local $os i32) (local $on i32)
    (local $k i32) (local $i i32) (local $ca i32) (local $ho i32)
    (local $pa i32) (local $po i32) (local $pe i32) (local $pt i32)
    (local $neg v128) (local $t v128)
    (local $w1r v128) (local $w1i v128)
    (local $x0 v128) (local $x1 v128) (local $y1 v128)
    (local.set $W (i32.shl (local.get $count) (i32.const 4)))
    (local.set $s (i32.mul (local.get $W) (local.get $ido)))
    (local.set $os (i32.mul (local.get $s) (local.get $l1)))
    (local.set $on (i32.gt_s (local.get $ido) (i32.const 1)))
    (local.set $neg (v128.load offset=96 (i32.const 0)))
    (local.set $k (i32.const 0))
    (block $kd
      (loop $kl
        (br_if $kd (i32.ge_u (local.get $k) (local.get $l1)))
        (local.set $ca (i32.add (local.get $c)
          (i32.mul (i32.shl (local.get $s) (i32.const 1)) (local.get $k))))
        (local.set $ho (i32.add (local.get $h) (i32.mul (local.get $s) (local.get $k))))
        (local.set $i (i32.const 0))
        (block $id
          (loop $il
            (br_if $id (i32.ge_u (local.get $i) (local.get $ido)))
            (local.set $pa (i32.add (local.get $ca) (i32.mul (local.get $W) (local.get $i))))
            (local.set $po (i32.add (local.get $ho) (i32.mul (local.get $W) (local.get $i))))
            (if (local.get $on)
              (then
                (local.set $pt (i32.add (local.get $tw) (i32.shl (local.get $i) (i32.const 4))))
                (local.set $t (v128.load (local.get $pt)))
                (local.set $w1r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w1i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))))
            (local.set $pe (i32.add (local.get $pa) (local.get $W)))
            (block $bd
              (loop $bl
                (br_if $bd (i32.ge_u (local.get $pa) (local.get $pe)))
                (local.set $x0 (v128.load (local.get $pa)))
                (local.set $x1 (v128.load (i32.add (local.get $pa) (local.get $s))))
                (v128.store (local.get $po) (f64x2.add (local.get $x0) (local.get $x1)))
                (local.set $y1 (f64x2.sub (local.get $x0) (local.get $x1)))
                (if (local.get $on)
                  (then
                    (local.set $y1 (f64x2.add
                      (f64x2.mul (local.get $y1) (local.get $w1r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y1) (local.get $y1)) (local.get $w1i))))))
                (v128.store (i32.add (local.get $po) (local.get $os)) (local.get $y1))
                (local.set $pa (i32.add (local.get $pa) (i32.const 16)))
                (local.set $po (i32.add (local.get $po) (i32.const 16)))
                (br $bl)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $il)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $kl))))

  (func (export "pass3")
    (param $c i32) (param $h i32) (param $tw i32) (param $ido i32) (param $l1 i32)
    (param $count i32)
    (local $W i32) (local $s i32) (local $os i32) (local $on i32)
    (local $k i32) (local $i i32) (local $ca i32) (local $ho i32)
    (local $pa i32) (local $po i32) (local $pe i32) (local $pt i32)
    (local $neg v128) (local $sin60 v128) (local $half v128) (local $t v128)
    (local $w1r v128) (local $w1i v128) (local $w2r v128) (local $w2i v128)
    (local $x0 v128) (local $x1 v128) (local $x2 v128)
    (local $sm v128) (local $d v128) (local $a v128) (local $jd v128)
    (local $y1 v128) (local $y2 v128)
    (local.set $W (i32.shl (local.get $count) (i32.const 4)))
    (local.set $s (i32.mul (local.get $W) (local.get $ido)))
    (local.set $os (i32.mul (local.get $s) (local.get $l1)))
    (local.set $on (i32.gt_s (local.get $ido) (i32.const 1)))
    (local.set $neg (v128.load offset=96 (i32.const 0)))
    (local.set $sin60 (v128.load offset=64 (i32.const 0)))
    (local.set $half (v128.load offset=144 (i32.const 0)))
    (local.set $k (i32.const 0))
    (block $kd
      (loop $kl
        (br_if $kd (i32.ge_u (local.get $k) (local.get $l1)))
        (local.set $ca (i32.add (local.get $c)
          (i32.mul (i32.mul (local.get $s) (i32.const 3)) (local.get $k))))
        (local.set $ho (i32.add (local.get $h) (i32.mul (local.get $s) (local.get $k))))
        (local.set $i (i32.const 0))
        (block $id
          (loop $il
            (br_if $id (i32.ge_u (local.get $i) (local.get $ido)))
            (local.set $pa (i32.add (local.get $ca) (i32.mul (local.get $W) (local.get $i))))
            (local.set $po (i32.add (local.get $ho) (i32.mul (local.get $W) (local.get $i))))
            (if (local.get $on)
              (then
                (local.set $pt (i32.add (local.get $tw) (i32.shl (local.get $i) (i32.const 5))))
                (local.set $t (v128.load (local.get $pt)))
                (local.set $w1r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w1i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=16 (local.get $pt)))
                (local.set $w2r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w2i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))))
            (local.set $pe (i32.add (local.get $pa) (local.get $W)))
            (block $bd
              (loop $bl
                (br_if $bd (i32.ge_u (local.get $pa) (local.get $pe)))
                (local.set $x0 (v128.load (local.get $pa)))
                (local.set $x1 (v128.load (i32.add (local.get $pa) (local.get $s))))
                (local.set $x2 (v128.load (i32.add (local.get $pa)
                  (i32.shl (local.get $s) (i32.const 1)))))
                (local.set $sm (f64x2.add (local.get $x1) (local.get $x2)))
                (local.set $d (f64x2.mul (local.get $sin60)
                  (f64x2.sub (local.get $x1) (local.get $x2))))
                (local.set $a (f64x2.sub (local.get $x0)
                  (f64x2.mul (local.get $half) (local.get $sm))))
                ;; jd = (di, −dr): y1 = a + jd = (ar + di, ai − dr), y2 = a − jd.
                (local.set $jd (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $d) (local.get $d))))
                (v128.store (local.get $po) (f64x2.add (local.get $x0) (local.get $sm)))
                (local.set $y1 (f64x2.add (local.get $a) (local.get $jd)))
                (local.set $y2 (f64x2.sub (local.get $a) (local.get $jd)))
                (if (local.get $on)
                  (then
                    (local.set $y1 (f64x2.add
                      (f64x2.mul (local.get $y1) (local.get $w1r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y1) (local.get $y1)) (local.get $w1i))))
                    (local.set $y2 (f64x2.add
                      (f64x2.mul (local.get $y2) (local.get $w2r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y2) (local.get $y2)) (local.get $w2i))))))
                (v128.store (i32.add (local.get $po) (local.get $os)) (local.get $y1))
                (v128.store (i32.add (local.get $po) (i32.shl (local.get $os) (i32.const 1)))
                  (local.get $y2))
                (local.set $pa (i32.add (local.get $pa) (i32.const 16)))
                (local.set $po (i32.add (local.get $po) (i32.const 16)))
                (br $bl)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $il)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $kl))))

  (func (export "pass4")
    (param $c i32) (param $h i32) (param $tw i32) (param $ido i32) (param $l1 i32)
    (param $count i32)
    (local $W i32) (local $s i32) (local $s2 i32) (local $s3 i32)
    (local $os i32) (local $os2 i32) (local $os3 i32) (local $on i32)
    (local $k i32) (local $i i32) (local $ca i32) (local $ho i32)
    (local $pa i32) (local $po i32) (local $pe i32) (local $pt i32)
    (local $neg v128) (local $t v128)
    (local $w1r v128) (local $w1i v128) (local $w2r v128) (local $w2i v128)
    (local $w3r v128) (local $w3i v128)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $jt3 v128)
    (local $y1 v128) (local $y2 v128) (local $y3 v128)
    (local.set $W (i32.shl (local.get $count) (i32.const 4)))
    (local.set $s (i32.mul (local.get $W) (local.get $ido)))
    (local.set $s2 (i32.shl (local.get $s) (i32.const 1)))
    (local.set $s3 (i32.add (local.get $s2) (local.get $s)))
    (local.set $os (i32.mul (local.get $s) (local.get $l1)))
    (local.set $os2 (i32.shl (local.get $os) (i32.const 1)))
    (local.set $os3 (i32.add (local.get $os2) (local.get $os)))
    (local.set $on (i32.gt_s (local.get $ido) (i32.const 1)))
    (local.set $neg (v128.load offset=96 (i32.const 0)))
    (local.set $k (i32.const 0))
    (block $kd
      (loop $kl
        (br_if $kd (i32.ge_u (local.get $k) (local.get $l1)))
        (local.set $ca (i32.add (local.get $c)
          (i32.mul (i32.shl (local.get $s) (i32.const 2)) (local.get $k))))
        (local.set $ho (i32.add (local.get $h) (i32.mul (local.get $s) (local.get $k))))
        (local.set $i (i32.const 0))
        (block $id
          (loop $il
            (br_if $id (i32.ge_u (local.get $i) (local.get $ido)))
            (local.set $pa (i32.add (local.get $ca) (i32.mul (local.get $W) (local.get $i))))
            (local.set $po (i32.add (local.get $ho) (i32.mul (local.get $W) (local.get $i))))
            (if (local.get $on)
              (then
                (local.set $pt (i32.add (local.get $tw)
                  (i32.mul (local.get $i) (i32.const 48))))
                (local.set $t (v128.load (local.get $pt)))
                (local.set $w1r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w1i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=16 (local.get $pt)))
                (local.set $w2r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w2i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=32 (local.get $pt)))
                (local.set $w3r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w3i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))))
            (local.set $pe (i32.add (local.get $pa) (local.get $W)))
            (block $bd
              (loop $bl
                (br_if $bd (i32.ge_u (local.get $pa) (local.get $pe)))
                (local.set $x0 (v128.load (local.get $pa)))
                (local.set $x1 (v128.load (i32.add (local.get $pa) (local.get $s))))
                (local.set $x2 (v128.load (i32.add (local.get $pa) (local.get $s2))))
                (local.set $x3 (v128.load (i32.add (local.get $pa) (local.get $s3))))
                (local.set $t0 (f64x2.add (local.get $x0) (local.get $x2)))
                (local.set $t1 (f64x2.sub (local.get $x0) (local.get $x2)))
                (local.set $t2 (f64x2.add (local.get $x1) (local.get $x3)))
                ;; jt3 = (t3i, −t3r) with t3 = x1 − x3.
                (local.set $jt3 (f64x2.sub (local.get $x1) (local.get $x3)))
                (local.set $jt3 (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $jt3) (local.get $jt3))))
                (v128.store (local.get $po) (f64x2.add (local.get $t0) (local.get $t2)))
                (local.set $y1 (f64x2.add (local.get $t1) (local.get $jt3)))
                (local.set $y2 (f64x2.sub (local.get $t0) (local.get $t2)))
                (local.set $y3 (f64x2.sub (local.get $t1) (local.get $jt3)))
                (if (local.get $on)
                  (then
                    (local.set $y1 (f64x2.add
                      (f64x2.mul (local.get $y1) (local.get $w1r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y1) (local.get $y1)) (local.get $w1i))))
                    (local.set $y2 (f64x2.add
                      (f64x2.mul (local.get $y2) (local.get $w2r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y2) (local.get $y2)) (local.get $w2i))))
                    (local.set $y3 (f64x2.add
                      (f64x2.mul (local.get $y3) (local.get $w3r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y3) (local.get $y3)) (local.get $w3i))))))
                (v128.store (i32.add (local.get $po) (local.get $os)) (local.get $y1))
                (v128.store (i32.add (local.get $po) (local.get $os2)) (local.get $y2))
                (v128.store (i32.add (local.get $po) (local.get $os3)) (local.get $y3))
                (local.set $pa (i32.add (local.get $pa) (i32.const 16)))
                (local.set $po (i32.add (local.get $po) (i32.const 16)))
                (br $bl)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $il)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $kl))))

  (func (export "pass5")
    (param $c i32) (param $h i32) (param $tw i32) (param $ido i32) (param $l1 i32)
    (param $count i32)
    (local $W i32) (local $s i32) (local $s2 i32) (local $s3 i32) (local $s4 i32)
    (local $os i32) (local $os2 i32) (local $os3 i32) (local $os4 i32) (local $on i32)
    (local $k i32) (local $i i32) (local $ca i32) (local $ho i32)
    (local $pa i32) (local $po i32) (local $pe i32) (local $pt i32)
    (local $neg v128) (local $t v128)
    (local $c1 v128) (local $c2 v128) (local $sn1 v128) (local $sn2 v128)
    (local $w1r v128) (local $w1i v128) (local $w2r v128) (local $w2i v128)
    (local $w3r v128) (local $w3i v128) (local $w4r v128) (local $w4i v128)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128) (local $x4 v128)
    (local $s1 v128) (local $d1 v128) (local $ss2 v128) (local $d2 v128)
    (local $a1 v128) (local $a2 v128) (local $jb1 v128) (local $jb2 v128)
    (local $y1 v128) (local $y2 v128) (local $y3 v128) (local $y4 v128)
    (local.set $W (i32.shl (local.get $count) (i32.const 4)))
    (local.set $s (i32.mul (local.get $W) (local.get $ido)))
    (local.set $s2 (i32.shl (local.get $s) (i32.const 1)))
    (local.set $s3 (i32.add (local.get $s2) (local.get $s)))
    (local.set $s4 (i32.shl (local.get $s) (i32.const 2)))
    (local.set $os (i32.mul (local.get $s) (local.get $l1)))
    (local.set $os2 (i32.shl (local.get $os) (i32.const 1)))
    (local.set $os3 (i32.add (local.get $os2) (local.get $os)))
    (local.set $os4 (i32.shl (local.get $os) (i32.const 2)))
    (local.set $on (i32.gt_s (local.get $ido) (i32.const 1)))
    (local.set $neg (v128.load offset=96 (i32.const 0)))
    (local.set $c1 (v128.load offset=0 (i32.const 0)))
    (local.set $c2 (v128.load offset=16 (i32.const 0)))
    (local.set $sn1 (v128.load offset=32 (i32.const 0)))
    (local.set $sn2 (v128.load offset=48 (i32.const 0)))
    (local.set $k (i32.const 0))
    (block $kd
      (loop $kl
        (br_if $kd (i32.ge_u (local.get $k) (local.get $l1)))
        (local.set $ca (i32.add (local.get $c)
          (i32.mul (i32.mul (local.get $s) (i32.const 5)) (local.get $k))))
        (local.set $ho (i32.add (local.get $h) (i32.mul (local.get $s) (local.get $k))))
        (local.set $i (i32.const 0))
        (block $id
          (loop $il
            (br_if $id (i32.ge_u (local.get $i) (local.get $ido)))
            (local.set $pa (i32.add (local.get $ca) (i32.mul (local.get $W) (local.get $i))))
            (local.set $po (i32.add (local.get $ho) (i32.mul (local.get $W) (local.get $i))))
            (if (local.get $on)
              (then
                (local.set $pt (i32.add (local.get $tw) (i32.shl (local.get $i) (i32.const 6))))
                (local.set $t (v128.load (local.get $pt)))
                (local.set $w1r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w1i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=16 (local.get $pt)))
                (local.set $w2r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w2i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=32 (local.get $pt)))
                (local.set $w3r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w3i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=48 (local.get $pt)))
                (local.set $w4r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w4i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))))
            (local.set $pe (i32.add (local.get $pa) (local.get $W)))
            (block $bd
              (loop $bl
                (br_if $bd (i32.ge_u (local.get $pa) (local.get $pe)))
                (local.set $x0 (v128.load (local.get $pa)))
                (local.set $x1 (v128.load (i32.add (local.get $pa) (local.get $s))))
                (local.set $x2 (v128.load (i32.add (local.get $pa) (local.get $s2))))
                (local.set $x3 (v128.load (i32.add (local.get $pa) (local.get $s3))))
                (local.set $x4 (v128.load (i32.add (local.get $pa) (local.get $s4))))
                (local.set $s1 (f64x2.add (local.get $x1) (local.get $x4)))
                (local.set $d1 (f64x2.sub (local.get $x1) (local.get $x4)))
                (local.set $ss2 (f64x2.add (local.get $x2) (local.get $x3)))
                (local.set $d2 (f64x2.sub (local.get $x2) (local.get $x3)))
                (v128.store (local.get $po)
                  (f64x2.add (f64x2.add (local.get $x0) (local.get $s1)) (local.get $ss2)))
                ;; a1 = x0 + C1·s1 + C2·s2, b1 = S1·d1 + S2·d2, a2 = x0 + C2·s1 + C1·s2,
                ;; b2 = S2·d1 − S1·d2; jb = (bi, −br).
                (local.set $a1 (f64x2.add
                  (f64x2.add (local.get $x0) (f64x2.mul (local.get $c1) (local.get $s1)))
                  (f64x2.mul (local.get $c2) (local.get $ss2))))
                (local.set $a2 (f64x2.add
                  (f64x2.add (local.get $x0) (f64x2.mul (local.get $c2) (local.get $s1)))
                  (f64x2.mul (local.get $c1) (local.get $ss2))))
                (local.set $jb1 (f64x2.add
                  (f64x2.mul (local.get $sn1) (local.get $d1))
                  (f64x2.mul (local.get $sn2) (local.get $d2))))
                (local.set $jb1 (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $jb1) (local.get $jb1))))
                (local.set $jb2 (f64x2.sub
                  (f64x2.mul (local.get $sn2) (local.get $d1))
                  (f64x2.mul (local.get $sn1) (local.get $d2))))
                (local.set $jb2 (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $jb2) (local.get $jb2))))
                (local.set $y1 (f64x2.add (local.get $a1) (local.get $jb1)))
                (local.set $y2 (f64x2.add (local.get $a2) (local.get $jb2)))
                (local.set $y3 (f64x2.sub (local.get $a2) (local.get $jb2)))
                (local.set $y4 (f64x2.sub (local.get $a1) (local.get $jb1)))
                (if (local.get $on)
                  (then
                    (local.set $y1 (f64x2.add
                      (f64x2.mul (local.get $y1) (local.get $w1r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y1) (local.get $y1)) (local.get $w1i))))
                    (local.set $y2 (f64x2.add
                      (f64x2.mul (local.get $y2) (local.get $w2r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y2) (local.get $y2)) (local.get $w2i))))
                    (local.set $y3 (f64x2.add
                      (f64x2.mul (local.get $y3) (local.get $w3r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y3) (local.get $y3)) (local.get $w3i))))
                    (local.set $y4 (f64x2.add
                      (f64x2.mul (local.get $y4) (local.get $w4r))
                      (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $y4) (local.get $y4)) (local.get $w4i))))))
                (v128.store (i32.add (local.get $po) (local.get $os)) (local.get $y1))
                (v128.store (i32.add (local.get $po) (local.get $os2)) (local.get $y2))
                (v128.store (i32.add (local.get $po) (local.get $os3)) (local.get $y3))
                (v128.store (i32.add (local.get $po) (local.get $os4)) (local.get $y4))
                (local.set $pa (i32.add (local.get $pa) (i32.const 16)))
                (local.set $po (i32.add (local.get $po) (i32.const 16)))
                (br $bl)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $il)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $kl))))

  (func (export "pass8")
    (param $c i32) (param $h i32) (param $tw i32) (param $ido i32) (param $l1 i32)
    (param $count i32)
    (local $W i32) (local $s i32) (local $os i32) (local $on i32)
    (local $k i32) (local $i i32) (local $ca i32) (local $ho i32)
    (local $pa i32) (local $po i32) (local $pe i32) (local $pt i32)
    (local $neg v128) (local $r v128) (local $rneg v128) (local $negr v128) (local $t v128)
    (local $w1r v128) (local $w1i v128) (local $w2r v128) (local $w2i v128)
    (local $w3r v128) (local $w3i v128) (local $w4r v128) (local $w4i v128)
    (local $w5r v128) (local $w5i v128) (local $w6r v128) (local $w6i v128)
    (local $w7r v128) (local $w7i v128)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128)
    (local $x4 v128) (local $x5 v128) (local $x6 v128) (local $x7 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $b3 v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $jt3 v128)
    (local $y v128)
    (local.set $W (i32.shl (local.get $count) (i32.const 4)))
    (local.set $s (i32.mul (local.get $W) (local.get $ido)))
    (local.set $os (i32.mul (local.get $s) (local.get $l1)))
    (local.set $on (i32.gt_s (local.get $ido) (i32.const 1)))
    (local.set $neg (v128.load offset=96 (i32.const 0)))
    (local.set $r (v128.load offset=80 (i32.const 0)))
    (local.set $rneg (v128.load offset=112 (i32.const 0)))
    (local.set $negr (v128.load offset=128 (i32.const 0)))
    (local.set $k (i32.const 0))
    (block $kd
      (loop $kl
        (br_if $kd (i32.ge_u (local.get $k) (local.get $l1)))
        (local.set $ca (i32.add (local.get $c)
          (i32.mul (i32.shl (local.get $s) (i32.const 3)) (local.get $k))))
        (local.set $ho (i32.add (local.get $h) (i32.mul (local.get $s) (local.get $k))))
        (local.set $i (i32.const 0))
        (block $id
          (loop $il
            (br_if $id (i32.ge_u (local.get $i) (local.get $ido)))
            (local.set $pa (i32.add (local.get $ca) (i32.mul (local.get $W) (local.get $i))))
            (local.set $po (i32.add (local.get $ho) (i32.mul (local.get $W) (local.get $i))))
            (if (local.get $on)
              (then
                (local.set $pt (i32.add (local.get $tw)
                  (i32.mul (local.get $i) (i32.const 112))))
                (local.set $t (v128.load (local.get $pt)))
                (local.set $w1r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w1i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=16 (local.get $pt)))
                (local.set $w2r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w2i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=32 (local.get $pt)))
                (local.set $w3r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w3i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=48 (local.get $pt)))
                (local.set $w4r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w4i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=64 (local.get $pt)))
                (local.set $w5r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w5i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=80 (local.get $pt)))
                (local.set $w6r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w6i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))
                (local.set $t (v128.load offset=96 (local.get $pt)))
                (local.set $w7r (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
                  (local.get $t) (local.get $t)))
                (local.set $w7i (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                    (local.get $t) (local.get $t))))))
            (local.set $pe (i32.add (local.get $pa) (local.get $W)))
            (block $bd
              (loop $bl
                (br_if $bd (i32.ge_u (local.get $pa) (local.get $pe)))
                (local.set $x0 (v128.load (local.get $pa)))
                (local.set $x1 (v128.load (local.tee $pt (i32.add (local.get $pa) (local.get $s)))))
                (local.set $x2 (v128.load (local.tee $pt (i32.add (local.get $pt) (local.get $s)))))
                (local.set $x3 (v128.load (local.tee $pt (i32.add (local.get $pt) (local.get $s)))))
                (local.set $x4 (v128.load (local.tee $pt (i32.add (local.get $pt) (local.get $s)))))
                (local.set $x5 (v128.load (local.tee $pt (i32.add (local.get $pt) (local.get $s)))))
                (local.set $x6 (v128.load (local.tee $pt (i32.add (local.get $pt) (local.get $s)))))
                (local.set $x7 (v128.load (i32.add (local.get $pt) (local.get $s))))
                (local.set $a0 (f64x2.add (local.get $x0) (local.get $x4)))
                (local.set $a1 (f64x2.add (local.get $x1) (local.get $x5)))
                (local.set $a2 (f64x2.add (local.get $x2) (local.get $x6)))
                (local.set $a3 (f64x2.add (local.get $x3) (local.get $x7)))
                (local.set $b0 (f64x2.sub (local.get $x0) (local.get $x4)))
                ;; b1 = R·(d1 + jd1) = (R·(d1r + d1i), R·(d1i − d1r)), d1 = x1 − x5.
                (local.set $b1 (f64x2.sub (local.get $x1) (local.get $x5)))
                (local.set $b1 (f64x2.mul (local.get $r)
                  (f64x2.add (local.get $b1)
                    (f64x2.mul (local.get $neg)
                      (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $b1) (local.get $b1))))))
                ;; b2 = (x2i − x6i, x6r − x2r) = (x2i, x6r) − (x6i, x2r).
                (local.set $b2 (f64x2.sub
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
                    (local.get $x2) (local.get $x6))
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
                    (local.get $x6) (local.get $x2))))
                ;; b3 = (R·(d3i − d3r), −R·(d3r + d3i)) = (R, −R)·(swap(d3) + (−d3r, d3i)).
                (local.set $b3 (f64x2.sub (local.get $x3) (local.get $x7)))
                (local.set $b3 (f64x2.mul (local.get $rneg)
                  (f64x2.add
                    (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                      (local.get $b3) (local.get $b3))
                    (f64x2.mul (local.get $negr) (local.get $b3)))))
                ;; Even outputs.
                (local.set $t0 (f64x2.add (local.get $a0) (local.get $a2)))
                (local.set $t1 (f64x2.sub (local.get $a0) (local.get $a2)))
                (local.set $t2 (f64x2.add (local.get $a1) (local.get $a3)))
                (local.set $jt3 (f64x2.sub (local.get $a1) (local.get $a3)))
                (local.set $jt3 (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $jt3) (local.get $jt3))))
                (v128.store (local.get $po) (f64x2.add (local.get $t0) (local.get $t2)))
                (local.set $pt (i32.add (local.get $po) (local.get $os)))
                ;; y2
                (local.set $y (f64x2.add (local.get $t1) (local.get $jt3)))
                (if (local.get $on) (then (local.set $y (f64x2.add
                  (f64x2.mul (local.get $y) (local.get $w2r))
                  (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $y) (local.get $y)) (local.get $w2i))))))
                (v128.store (i32.add (local.get $pt) (local.get $os)) (local.get $y))
                ;; y4
                (local.set $y (f64x2.sub (local.get $t0) (local.get $t2)))
                (if (local.get $on) (then (local.set $y (f64x2.add
                  (f64x2.mul (local.get $y) (local.get $w4r))
                  (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $y) (local.get $y)) (local.get $w4i))))))
                (v128.store (i32.add (local.get $po) (i32.shl (local.get $os) (i32.const 2)))
                  (local.get $y))
                ;; y6
                (local.set $y (f64x2.sub (local.get $t1) (local.get $jt3)))
                (if (local.get $on) (then (local.set $y (f64x2.add
                  (f64x2.mul (local.get $y) (local.get $w6r))
                  (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $y) (local.get $y)) (local.get $w6i))))))
                (v128.store (i32.add (local.get $po) (i32.mul (local.get $os) (i32.const 6)))
                  (local.get $y))
                ;; Odd outputs.
                (local.set $t0 (f64x2.add (local.get $b0) (local.get $b2)))
                (local.set $t1 (f64x2.sub (local.get $b0) (local.get $b2)))
                (local.set $t2 (f64x2.add (local.get $b1) (local.get $b3)))
                (local.set $jt3 (f64x2.sub (local.get $b1) (local.get $b3)))
                (local.set $jt3 (f64x2.mul (local.get $neg)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $jt3) (local.get $jt3))))
                ;; y1
                (local.set $y (f64x2.add (local.get $t0) (local.get $t2)))
                (if (local.get $on) (then (local.set $y (f64x2.add
                  (f64x2.mul (local.get $y) (local.get $w1r))
                  (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $y) (local.get $y)) (local.get $w1i))))))
                (v128.store (local.get $pt) (local.get $y))
                ;; y3
                (local.set $y (f64x2.add (local.get $t1) (local.get $jt3)))
                (if (local.get $on) (then (local.set $y (f64x2.add
                  (f64x2.mul (local.get $y) (local.get $w3r))
                  (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $y) (local.get $y)) (local.get $w3i))))))
                (v128.store (i32.add (local.get $po) (i32.mul (local.get $os) (i32.const 3)))
                  (local.get $y))
                ;; y5
                (local.set $y (f64x2.sub (local.get $t0) (local.get $t2)))
                (if (local.get $on) (then (local.set $y (f64x2.add
                  (f64x2.mul (local.get $y) (local.get $w5r))
                  (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $y) (local.get $y)) (local.get $w5i))))))
                (v128.store (i32.add (local.get $po) (i32.mul (local.get $os) (i32.const 5)))
                  (local.get $y))
                ;; y7
                (local.set $y (f64x2.sub (local.get $t1) (local.get $jt3)))
                (if (local.get $on) (then (local.set $y (f64x2.add
                  (f64x2.mul (local.get $y) (local.get $w7r))
                  (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                    (local.get $y) (local.get $y)) (local.get $w7i))))))
                (v128.store (i32.add (local.get $po) (i32.mul (local.get $os) (i32.const 7)))
                  (local.get $y))
                (local.set $pa (i32.add (local.get $pa) (i32.const 16)))
                (local.set $po (i32.add (local.get $po) (i32.const 16)))
                (br $bl)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $il)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $kl))))
)
