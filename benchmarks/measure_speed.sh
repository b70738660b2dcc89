#!/bin/bash
# The README "Speed" figures: compiled vs pure Python (BOARDSIM_PURE=1) in alternation, three runs each;
# then start-up, the whole 20,000-game Osaka run with one and two jobs, and the split. About 5 minutes.
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
for i in 1 2; do
  /usr/bin/time -f "C jobs1: %e s %U+%S s %M KB" .venv/bin/sim run configs/traders_of_osaka/speed_random4.yaml --jobs 1 --out /tmp/speed1 --force --quiet 2>&1 | tail -1
  /usr/bin/time -f "C jobs2: %e s %U+%S s %M KB" .venv/bin/sim run configs/traders_of_osaka/speed_random4.yaml --jobs 2 --out /tmp/speed2 --force --quiet 2>&1 | tail -1
done
BOARDSIM_PURE=1 /usr/bin/time -f "P jobs1: %e s %U+%S s %M KB" .venv/bin/sim run configs/traders_of_osaka/speed_random4.yaml --jobs 1 --out /tmp/speed1 --force --quiet 2>&1 | tail -1
.venv/bin/python benchmarks/profile_run.py configs/traders_of_osaka/speed_random4.yaml --games 20000 --jobs 1 --processes 2>&1 | tail -10
uptime
