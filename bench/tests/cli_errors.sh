#!/usr/bin/env bash
# ctest bench/cli_errors: pdnn-bench refuses bad problem lines, options and values with
# exit status 2 and a message naming the culprit, before running anything; --list and
# --help work. Usage: cli_errors.sh PDNN_BENCH
set -u
bench="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect STATUS SUBSTRING ARGS...: exit status and a substring of stdout + stderr
expect() {
  local want_rc="$1" want_msg="$2"
  shift 2
  local out rc
  out="$("$bench" "$@" 2>&1)"
  rc=$?
  if [ "$rc" -ne "$want_rc" ] || [[ "$out" != *"$want_msg"* ]]; then
    echo "FAIL: pdnn-bench $* -> status $rc (want $want_rc), output:"
    echo "$out" | sed 's/^/    /'
    echo "    (wanted the text: $want_msg)"
    fails=$((fails + 1))
  fi
}

printf '# a comment\n\nmb1ic2ih5oc2kh3\nmb1ic2ih5oc2kh3_zz\n' > "$tmp/bad.batch"
expect 2 "bad.batch:4: bad problem 'mb1ic2ih5oc2kh3_zz': unknown entry at 'zz'" --batch="$tmp/bad.batch"
expect 2 "unknown entry at 'x'" mb2ic4ih9oc8kh3x
expect 2 "the h dimension needs ih and kh" mb2ic4oc8kh3
expect 2 "ic and oc are required" mb2ic4ih9kh3
expect 2 "must be multiples of g=3" g3mb2ic4ih9oc8kh3
expect 2 "'ih' given twice" mb2ic4ih9ih9oc8kh3
expect 2 "'kh' must be followed by a non-negative integer" mb2ic4ih9oc8kh-3
expect 2 "too small for ih=9" mb2ic4ih9oc8oh3kh3
expect 2 "larger than the padded input" mb2ic4ih5oc8kh9
expect 2 "a 3-d problem gives both the h and w entries or neither" mb1ic1id4ih4oc1kd1kh1
expect 2 "no spatial size" mb1ic1oc1
expect 2 "has an unmatched quote" 'mb1ic2ih5oc2kh3n"open'
expect 2 "a size above 2147483647" mb2ic3ih20oc8kh3ph1 mb2ic3ih4294967297oc8kh3ph1
expect 2 "a tensor above 2^60 elements" --list mb2147483647ic2147483647ih1oc2147483647kh1
mkdir -p "$tmp/adir"
expect 2 "cannot read batch file" --batch="$tmp/adir" mb1ic1ih3oc1kh1
expect 2 "the pdnn key tag '_flip' cannot be replayed" mb2ic4ih9oc4kh3g1_f32_fwd_flip
expect 2 "_wkrsc, _xnhwc and _ynhwc replay together" mb2ic4ih9oc4kh3_f32_fwd_xnhwc
expect 0 "1 BWD_W mb2ic4ih9oc4oh7kh3ph0 -" mb2ic4ih9oc4kh3_f64_bwd_w --list
expect 2 "unknown option '--bogus'" --bogus mb1ic1ih3oc1kh1
expect 2 "unknown --dir 'FOO'" --dir=FOO mb1ic1ih3oc1kh1
expect 2 "unknown --algo 'GEMM' for BWD_D" --dir=BWD_D --algo=GEMM mb1ic1ih3oc1kh1
expect 2 "unknown --mode 'X'" --mode=X mb1ic1ih3oc1kh1
expect 2 "unknown data type 'f16'" --dt=f16 mb1ic1ih3oc1kh1
expect 2 "unknown --tag 'nc'" --tag=nc mb1ic1ih3oc1kh1
expect 2 "bad thread list '0'" -t 0 mb1ic1ih3oc1kh1
expect 2 "-t needs a thread list" mb1ic1ih3oc1kh1 -t
expect 2 "bad --mb 'x'" --mb=x mb1ic1ih3oc1kh1
expect 2 "bad round count" -r 0 mb1ic1ih3oc1kh1
expect 2 "bad --timing 'fast' (best or mean)" --timing=fast mb1ic1ih3oc1kh1
expect 2 "--timing needs a value" --timing mb1ic1ih3oc1kh1
expect 0 "P: best block mean per call of 1 rounds" --timing=mean -r 1 -m 0.001 -t 1 mb1ic1ih3oc1kh1
expect 2 "unknown --ref 'x'" --ref=x mb1ic1ih3oc1kh1
expect 2 "cannot read batch file" --batch="$tmp/missing.batch"
expect 2 "no problem given" --mode=C
expect 2 "--index=3 but there is 1 problem" --index=3 mb1ic1ih3oc1kh1
expect 0 "usage: pdnn-bench" --help
expect 0 "2 BWD_W mb4ic2ih5oc2oh5kh3ph1 tiny" mb1ic2ih5oc2kh3 --dir=BWD_W --mb=4 mb1ic2ih5oc2kh3ph1n"tiny" --list
expect 0 "applies to none" --list mb1ic2ih5oc2kh3 --mb=4

if [ "$fails" -ne 0 ]; then
  echo "cli_errors: $fails case(s) failed"
  exit 1
fi
echo "cli_errors: all cases passed"
