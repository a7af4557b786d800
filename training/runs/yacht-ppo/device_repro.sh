#!/bin/bash
# Device run 2: re-run the deep16k command with a fixed total (reproduction), and a longer seed beside it.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
R=/tmp/runs; mkdir -p $R/repro $R/long
T="python3 -m frontends.cli train yacht --device cuda --config training/configs/yacht_wide.json --num-envs 16384"
S='minibatch_size=32768 hidden=[512,512,512,512]'
timeout 285 $T --run-dir $R/repro --total-steps 261095424 --seed 2 --set $S > $R/repro/log.txt 2>&1 &
$T --run-dir $R/long --total-steps 1500000000 --seed 3 --minutes 4.2 --set $S > $R/long/log.txt 2>&1 &
wait
for d in repro long; do
  echo "== $d"; grep -E "sized|stopped|Error|error" $R/$d/log.txt | head -5; tail -3 $R/$d/log.txt
  cat $R/$d/eval.jsonl 2>/dev/null | cut -c1-100
  mv $R/$d/checkpoint.pt $OUT/$d-checkpoint.pt 2>/dev/null
  tar -C $R -czf $OUT/$d.tgz $d
done
