#!/usr/bin/env bash
# End-to-end speed of `toolgrade eval` against the floor under any Python
# tool: a loop that only calls json.loads on each line of the same file.
#
#   bench/run.sh                  # 10k, 200k and 1M cases
#   bench/run.sh 10000 50000      # other sizes
#   REPEAT=3 bench/run.sh         # run each side three times
#   PGO=1 bench/run.sh            # build toolgrade as a release would, with
#                                 # a CPU profile of BenchmarkEval
#
# Needs Go and python3. Datasets are generated once (same seed, same file)
# into bench/data/, which git ignores. For each size it prints both sides'
# cases per second, the ratio (toolgrade / Python) and toolgrade's peak
# resident memory, and with REPEAT > 1 the median ratio per size. The
# machine's load is printed too: on a shared machine, run it when the load
# is low.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then
	sizes=(10000 200000 1000000)
fi
repeat=${REPEAT:-1}
data=bench/data
mkdir -p "$data"

echo "== build"
if [ "${PGO:-0}" = 1 ]; then
	go test -run XXX -bench '^BenchmarkEval(Small)?$' -benchtime 40x -cpuprofile "$data/default.pgo" -o "$data/toolgrade.test" ./cmd/toolgrade >/dev/null
	go build -pgo="$data/default.pgo" -o "$data/toolgrade" ./cmd/toolgrade
else
	go build -o "$data/toolgrade" ./cmd/toolgrade
fi
go build -o "$data/measure" ./bench/measure
go build -o "$data/gen" ./bench/gen

echo "== machine"
echo "cpus: $(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true
echo "go: $(go env GOVERSION), python: $(python3 -c 'import sys; print(sys.version.split()[0])')"

# measure prints "wall=… user=… sys=… maxrss_kb=… exit=…"; field NAME.
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }

results=()
for n in "${sizes[@]}"; do
	file="$data/cases-$n.jsonl"
	if [ ! -s "$file" ]; then
		echo "== generate $n cases"
		"$data/gen" -n "$n" -o "$file"
	fi
	for r in $(seq "$repeat"); do
		echo "== $n cases, run $r (load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime))"
		py=$("$data/measure" -ok 0 -- python3 bench/jsonloads.py "$file")
		echo "python json.loads: $py"
		tg=$("$data/measure" -- "$data/toolgrade" eval --quiet --out "$data/results-$n.jsonl" "$file")
		echo "toolgrade eval:    $tg"
		results+=("$n $(field wall "$py") $(field wall "$tg") $(field maxrss_kb "$tg") $(field user "$tg") $(field sys "$tg")")
	done
done

echo "== summary"
printf '%10s %16s %18s %7s %14s %16s\n' cases "python lines/s" "toolgrade cases/s" ratio "peak RSS (MB)" "toolgrade CPU s"
for row in "${results[@]}"; do
	read -r n pw tw rss user sys <<<"$row"
	awk -v n="$n" -v pw="$pw" -v tw="$tw" -v rss="$rss" -v cpu="$user+$sys" 'BEGIN {
		split(cpu, c, "+")
		printf "%10d %16.0f %18.0f %6.2fx %14.1f %16.2f\n", n, n/pw, n/tw, pw/tw, rss/1024, c[1]+c[2]
	}'
done

# With REPEAT > 1, the median ratio per size: on a shared host the ratio of
# single runs moves by a fifth either way.
if [ "$repeat" -gt 1 ]; then
	echo "== median ratio"
	for n in "${sizes[@]}"; do
		for row in "${results[@]}"; do
			read -r rn pw tw _ <<<"$row"
			if [ "$rn" = "$n" ]; then
				awk -v pw="$pw" -v tw="$tw" 'BEGIN { printf "%.4f\n", pw/tw }'
			fi
		done | sort -n | awk -v n="$n" '{ r[NR] = $1 } END {
			m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
			printf "%10d %6.2fx of %d runs (%.2fx to %.2fx)\n", n, m, NR, r[1], r[NR]
		}'
	done
fi
