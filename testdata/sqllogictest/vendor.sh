#!/usr/bin/env bash
# Re-creates the vendored corpus subset from a git snapshot of
# github.com/gregrahn/sqllogictest (see NOTICE for the sample):
#
#   testdata/sqllogictest/vendor.sh /path/to/sqllogictest.git
#
# Each script is stored gzip-compressed (-n: no name or time stamp, so the
# output is byte-for-byte reproducible) under its path below test/.
set -euo pipefail
repo=$1
commit=d8d4f4b9a351102ec63196a920e8052f4f025509
out=$(cd "$(dirname "$0")" && pwd)

# The number of scripts taken from each sampled directory, lowest-numbered
# first (slt_good_0, slt_good_1, ...), counting only scripts present in
# the snapshot and not empty. Sizes 1 and 10000 of index/ are left out for
# time (see NOTICE), as are index/between/100 and index/in/100 and 1000,
# of which the snapshot holds no script.
declare -A take=(
	[random/aggregates]=1 [random/expr]=1 [random/groupby]=1 [random/select]=1
	[index/between/10]=1 [index/between/1000]=1
	[index/commute/10]=1 [index/commute/100]=1 [index/commute/1000]=1
	[index/delete/10]=1 [index/delete/100]=1 [index/delete/1000]=1
	[index/in/10]=1
	[index/orderby/10]=1 [index/orderby/100]=1 [index/orderby/1000]=1
	[index/orderby_nosort/10]=1 [index/orderby_nosort/100]=1 [index/orderby_nosort/1000]=1
	[index/random/10]=1 [index/random/100]=1 [index/random/1000]=1
	[index/view/10]=1 [index/view/100]=1 [index/view/1000]=1
)

# present DIR: the scripts of DIR in the snapshot that are stored and not
# empty, in numeric order.
present() {
	git -C "$repo" ls-tree -l "$commit" "test/$1/" |
		awk '$4 != "-" && $4 != "BAD" && $4 > 0 { print $5 }' |
		sort -t_ -k3,3n
}

vendor() {
	mkdir -p "$out/$(dirname "$1")"
	git -C "$repo" show "$commit:test/$1" | gzip -n -9 >"$out/$1.gz"
}

rm -rf "$out/evidence" "$out/index" "$out/random" "$out"/select*.test.gz
for n in 1 2 3 4 5; do
	vendor "select$n.test"
done
for f in $(git -C "$repo" ls-tree --name-only "$commit" test/evidence/); do
	vendor "${f#test/}"
done
for dir in $(printf '%s\n' "${!take[@]}" | sort); do
	for f in $(present "$dir" | head -n "${take[$dir]}"); do
		vendor "${f#test/}"
	done
done
