import glob,collections,sys
cat={'expiry':['WheelListTimer.drain','WheelListTimer.unlink','WheelTimer.visit','WheelTimer.free','clearOccupied','Blackhole.consume','onTimerExpiry','lambda$new','DeadlineTimerWheel.poll'],
'schedule':['WheelTimer.schedule','WheelTimer.allocate','scheduleEntry','TickClock.ceilTick','WheelTimer.place','placeFar','WheelListTimer.add','setOccupied','WheelTimer.handle','Tickwork.schedule','DeadlineTimerWheel.scheduleTimer','Math.max','Agrona.schedule'],
'per call':['WheelTimer.expire','WheelTimer.scan','nextOccupied','floorTick','migrate','Tickwork.expire','currentTickTime','Agrona.expire','checkExpire','TickHeap','nowTick','Long.compare'],
'loop':['ScheduleExpireBenchmark','SteadyStateBenchmark','jmhStub','jmhTest']}
for f in sorted(glob.glob(sys.argv[1]+'/*.collapsed')):  # usage: python3 categories.py DIR
    tot=0;c=collections.Counter();leafc=collections.Counter()
    for line in open(f):
        s,_,n=line.rstrip().rpartition(' ');n=int(n);tot+=n
        leaf=s.split(';')[-1]; leafc[leaf.split('/')[-1]]+=n
        for k,v in cat.items():
            if any(x in leaf for x in v): c[k]+=n;break
        else: c['other']+=n
    print(f.split('/')[-1],tot, ' '.join(f"{k} {100*v/tot:.1f}%" for k,v in c.most_common()))
    print('     ', ', '.join(f"{k} {100*v/tot:.1f}" for k,v in leafc.most_common(10)))
