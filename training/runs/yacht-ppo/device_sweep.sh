#!/bin/bash
# Device run: four Yacht PPO runs side by side on one GPU, each fitted to a time budget.
set -u
MIN=${MIN:-7.5}
[ -n "${LOCAL:-}" ] || python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
[ -n "${LOCAL:-}" ] || nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
python3 -c "import torch, numpy, gymnasium; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'numpy', numpy.__version__)" || exit 1
nproc
R=/tmp/runs
mkdir -p $R/wide300 $R/wide16k $R/wide8k $R/deep16k
for d in wide300 wide16k wide8k; do cp training/checkpoints/yacht-wide/checkpoint.pt $R/$d/; done
T="python3 -m frontends.cli train yacht --device ${DEV:-cuda} --minutes $MIN"
W="--config training/configs/yacht_wide.json"
$T $W --run-dir $R/wide300 --resume > $R/wide300/log.txt 2>&1 &
$T $W --run-dir $R/wide16k --resume --total-steps 1500000000 --num-envs 16384 --set minibatch_size=32768 > $R/wide16k/log.txt 2>&1 &
$T $W --run-dir $R/wide8k --resume --total-steps 1000000000 --num-envs 8192 --set minibatch_size=16384 > $R/wide8k/log.txt 2>&1 &
$T $W --run-dir $R/deep16k --total-steps 1500000000 --num-envs 16384 --seed 2 --set minibatch_size=32768 "hidden=[512,512,512,512]" > $R/deep16k/log.txt 2>&1 &
sleep ${SLEEP:-90}; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv
wait
for d in wide300 wide16k wide8k deep16k; do
  echo "== $d"; grep -E "sized|resumed|stopped|Error|error" $R/$d/log.txt | head -5; tail -4 $R/$d/log.txt
  cat $R/$d/eval.jsonl 2>/dev/null | cut -c1-120
  mv $R/$d/checkpoint.pt $OUT/$d-checkpoint.pt 2>/dev/null
  tar -C $R -czf $OUT/$d.tgz $d
done
ls -la $OUT
