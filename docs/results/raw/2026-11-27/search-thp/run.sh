#!/bin/bash
# n = 2,000,000, IntSearch.of against fastutil, with and without transparent huge pages for the heap
# (the machine's THP mode is madvise, so only -XX:+UseTransparentHugePages gets them); JDK 17; 2 rounds
J=$1; O=$2
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
OPT="-p n=2000000 -p impl=AUTO,FASTUTIL_OPEN_HASH_MAP -f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 1 2; do
  order="off on"; [ $r = 2 ] && order="on off"
  for thp in $order; do
    extra=""; [ $thp = on ] && extra="-jvmArgsAppend -XX:+UseTransparentHugePages"
    $J17 -jar $J 'search.IntSearchBenchmark.lookup$' $OPT $extra -rf json -rff $O/r$r-thp-$thp.json > $O/r$r-thp-$thp.log 2>&1
  done
done
