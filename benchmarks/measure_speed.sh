#!/bin/bash
# The README "Speed" figures: compiled vs pure Python (BOARDSIM_PURE=1) in alternation, three runs each;
# then start-up, the whole 20,000-game Osaka run with one and two jobs (five pairs, jobs_ratio.py), and the split.
# About 8 minutes.
# Run on a quiet machine: bash benchmarks/measure_speed.sh > speed.txt
cd "$(dirname "$0")/.."
unset PYTHONDONTWRITEBYTECODE
uptime
for g in traders_of_osaka taiwan_formosa xanadu alpenzian forwarder_of_xanadu; do
  for i in 1 2 3; do
    echo -n "C rand "; .venv/bin/sim bench $g --players 4 --games 1000 2>&1 | grep games/s
    echo -n "P rand "; BOARDSIM_PURE=1 .venv/bin/sim bench $g --players 4 --games 1000 2>&1 | grep games/s
    echo -n "C base "; .venv/bin/sim bench configs/$g/baseline.yaml --games 200 2>&1 | grep games/s
    echo -n "P base "; BOARDSIM_PURE=1 .venv/bin/sim bench configs/$g/baseline.yaml --games 200 2>&1 | grep games/s
  done
done
for i in 1 2 3; do
  /usr/bin/time -f "C 10-game: %e s %U+%S s %M KB" .venv/bin/sim run configs/traders_of_osaka/baseline.yaml --games 10 --jobs 1 --out /tmp/s11 --force --quiet 2>&1 | tail -1
  BOARDSIM_PURE=1 /usr/bin/time -f "P 10-game: %e s %U+%S s %M KB" .venv/bin/sim run configs/traders_of_osaka/baseline.yaml --games 10 --jobs 1 --out /tmp/s11 --force --quiet 2>&1 | tail -1
done
# the whole run, --jobs 1 and --jobs 2 in alternation, five pairs: each pair's ratio, their median and its
# interval, best against best, and the same over the pairs the machine ran steadily (benchmarks/jobs_ratio.py)
.venv/bin/python benchmarks/jobs_ratio.py configs/traders_of_osaka/speed_random4.yaml --pairs 5 --out /tmp/speed
BOARDSIM_PURE=1 /usr/bin/time -f "P jobs1: %e s %U+%S s %M KB" .venv/bin/sim run configs/traders_of_osaka/speed_random4.yaml --jobs 1 --out /tmp/speed1 --force --quiet 2>&1 | tail -1
for j in 1 2; do .venv/bin/python benchmarks/profile_run.py configs/traders_of_osaka/speed_random4.yaml --games 20000 --jobs $j --processes 2>&1 | grep -E "^\\||worker|helper"; done
uptime
