#!/usr/bin/env bash
# Issue 33's speed goals, measured as the issue measures them:
# `toolgrade eval --quiet --out /dev/null` against the Python loop that
# only calls json.loads on each line (bench/jsonloads.py), on 200,000
# small cases (`gen -calls 3`, lines of about 700 bytes) and 200,000
# 1.5 KB cases, the two alternated ROUNDS times (default 3). It prints
# the medians of CPU time (user+sys) and wall time, and whether each goal
# holds: toolgrade's CPU at most half the loop's, its wall time at most a
# quarter; it exits 1 when one does not.
#
#   bench/goals.sh                # three rounds
#   ROUNDS=10 bench/goals.sh      # ten
#   N=50000 bench/goals.sh        # fewer cases (a tenth of a second is noise)
#
# Figures move with the machine's load and its host's: run it when the
# machine is otherwise idle, and read several runs (bench/README.md,
# "Against the Python loop", gives seven sets of ten).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-3}
n=${N:-200000}
for v in "ROUNDS=$rounds" "N=$n"; do
	if ! [[ ${v#*=} =~ ^[1-9][0-9]*$ ]]; then
		echo "goals.sh: $v: want a whole number from 1" >&2
		exit 2
	fi
done
data=bench/data
mkdir -p "$data"

go build -o "$data/toolgrade" ./cmd/toolgrade
go build -o "$data/measure" ./bench/measure
go build -o "$data/gen" ./bench/gen
echo "load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime), cpus: $(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)"

# field NAME LINE: a field of measure's "wall=… user=… sys=…" line.
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }
# median: the median of the numbers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

met=true
printf '%-6s %-10s %10s %10s %8s %8s\n' cases side "CPU s" "wall s" "CPU ×" "speed ×"
for size in small:3 1.5KB:8; do
	name=${size%%:*} calls=${size#*:}
	file="$data/goals-$calls-$n.jsonl"
	[ -s "$file" ] || "$data/gen" -n "$n" -calls "$calls" -o "$file"
	py_cpu=() py_wall=() tg_cpu=() tg_wall=()
	for _ in $(seq "$rounds"); do
		py=$("$data/measure" -ok 0 -- python3 bench/jsonloads.py "$file" 2>"$data/goals.err") ||
			{ cat "$data/goals.err" >&2; echo "goals.sh: the Python loop failed on $file" >&2; exit 2; }
		tg=$("$data/measure" -- "$data/toolgrade" eval --quiet --out /dev/null "$file" 2>"$data/goals.err") ||
			{ cat "$data/goals.err" >&2; echo "goals.sh: toolgrade failed on $file" >&2; exit 2; }
		py_cpu+=("$(awk -v u="$(field user "$py")" -v s="$(field sys "$py")" 'BEGIN { print u + s }')")
		tg_cpu+=("$(awk -v u="$(field user "$tg")" -v s="$(field sys "$tg")" 'BEGIN { print u + s }')")
		py_wall+=("$(field wall "$py")")
		tg_wall+=("$(field wall "$tg")")
	done
	pc=$(printf '%s\n' "${py_cpu[@]}" | median) pw=$(printf '%s\n' "${py_wall[@]}" | median)
	tc=$(printf '%s\n' "${tg_cpu[@]}" | median) tw=$(printf '%s\n' "${tg_wall[@]}" | median)
	printf '%-6s %-10s %10.3f %10.3f\n' "$name" python "$pc" "$pw"
	awk -v name="$name" -v pc="$pc" -v pw="$pw" -v tc="$tc" -v tw="$tw" 'BEGIN {
		printf "%-6s %-10s %10.3f %10.3f %8.2f %8.2f  CPU %s, speed %s\n", name, "toolgrade", tc, tw, tc / pc, pw / tw,
			(tc <= pc / 2) ? "met (at most 0.5)" : "NOT MET (at most 0.5)",
			(pw >= 4 * tw) ? "met (at least 4)" : "NOT MET (at least 4)"
		exit !(tc <= pc / 2 && pw >= 4 * tw)
	}' || met=false
done
echo "medians of $rounds alternated runs of $n cases each"
$met
