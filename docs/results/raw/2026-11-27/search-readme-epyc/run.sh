#!/bin/bash
# The README's search table again (single lookups, IntSearch.of and the directories against
# fastutil), then batches at 200,000 and 2,000,000 keys; OpenJDK 17 then Temurin 25.
J=$1; O=$2
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for jdk in 17 25; do
  JAVA=$J17; [ $jdk = 25 ] && JAVA=$J25
  $JAVA -jar $J 'search.IntSearchBenchmark.lookup$' \
    -p impl=AUTO,RADIX_DIRECTORY,LOG_RADIX_DIRECTORY,TWO_LEVEL_RADIX_DIRECTORY,FASTUTIL_OPEN_HASH_MAP \
    -f 3 -wi 2 -w 500ms -i 3 -r 500ms -rf json -rff $O/lookup-jdk$jdk.json > $O/lookup-jdk$jdk.log 2>&1
  $JAVA -jar $J 'search.IntSearchBatchBenchmark' -p n=200000,2000000 \
    -p impl=AUTO,EYTZINGER,STATIC_BPLUS_TREE,FASTUTIL_OPEN_HASH_MAP -p batch=1,16,256,4096 \
    -f 2 -wi 2 -w 500ms -i 3 -r 500ms -rf json -rff $O/batch-jdk$jdk.json > $O/batch-jdk$jdk.log 2>&1
done
