package io.tickwork.client.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.client.common.ClientSelectorLoop.Clock;
import io.tickwork.client.common.ClientSelectorLoop.Wait;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ClientSelectorLoopTest {

    /** Records what the loop hands it; stops after {@code turns} turns (0: never). */
    static final class Recorder implements ClientSelectorLoop.Handler {
        final List<Long> readyClocks = new ArrayList<>();
        final List<Long> afterClocks = new ArrayList<>();
        final CountDownLatch firstTurn = new CountDownLatch(1);
        final int turns;
        long deadline = ClientSelectorLoop.NO_DEADLINE;
        int before;
        ClientSelectorLoop loop;

        Recorder(int turns) {
            this.turns = turns;
        }

        @Override
        public long beforeSelect(long now) {
            firstTurn.countDown();
            if (++before > turns && turns > 0) {
                loop.stop();
            }
            return deadline;
        }

        @Override
        public void ready(SelectionKey key, long now) {
            readyClocks.add(now);
            ByteBuffer b = ByteBuffer.allocate(16);
            try {
                ((Pipe.SourceChannel) key.channel()).read(b); // drain: the key is not ready again
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public void afterSelect(long now) {
            afterClocks.add(now);
        }
    }

    private static Pipe readablePipe(ClientSelectorLoop loop) throws IOException {
        Pipe p = Pipe.open();
        p.source().configureBlocking(false);
        loop.register(p.source(), SelectionKey.OP_READ, null);
        p.sink().write(ByteBuffer.wrap(new byte[] {1}));
        return p;
    }

    @Test
    void stopFromAnotherThreadEndsAWaitWithoutDeadline() throws Exception {
        Recorder r = new Recorder(0);
        try (ClientSelectorLoop loop = new ClientSelectorLoop(r, Wait.SLEEP, Clock.PER_TURN)) {
            r.loop = loop;
            Thread stopper = new Thread(() -> {
                try {
                    r.firstTurn.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                loop.stop();
            });
            stopper.start();
            loop.run(); // no deadline, no channel: only stop() ends the wait
            stopper.join();
        }
        assertTrue(r.before >= 1);
    }

    @Test
    void stopBeforeRunEndsItBeforeAnyTurn() throws Exception {
        Recorder r = new Recorder(0);
        try (ClientSelectorLoop loop = new ClientSelectorLoop(r, Wait.SLEEP, Clock.PER_TURN)) {
            loop.stop();
            loop.run();
        }
        assertEquals(0, r.before);
    }

    @Test
    void perTurnClockIsOneReadingForTheTurnsKeysAndItsAfterSelect() throws Exception {
        Recorder r = new Recorder(1);
        try (ClientSelectorLoop loop = new ClientSelectorLoop(r, Wait.SLEEP, Clock.PER_TURN)) {
            r.loop = loop;
            Pipe a = readablePipe(loop);
            Pipe b = readablePipe(loop);
            loop.run();
            a.sink().close();
            b.sink().close();
        }
        assertEquals(2, r.readyClocks.size(), "both ready keys in the one turn");
        assertEquals(r.readyClocks.get(0), r.readyClocks.get(1));
        assertEquals(List.of(r.readyClocks.get(0)), r.afterClocks);
    }

    @Test
    void perKeyClockReadsForEachKeyAndAfterSelectGetsTheLast() throws Exception {
        Recorder r = new Recorder(1);
        try (ClientSelectorLoop loop = new ClientSelectorLoop(r, Wait.SPIN, Clock.PER_KEY)) {
            r.loop = loop;
            Pipe a = readablePipe(loop);
            Pipe b = readablePipe(loop);
            loop.run();
            a.sink().close();
            b.sink().close();
        }
        assertEquals(2, r.readyClocks.size(), "both ready keys in the one turn");
        assertTrue(r.readyClocks.get(1) >= r.readyClocks.get(0));
        assertEquals(List.of(r.readyClocks.get(1)), r.afterClocks);
    }

    @Test
    void aDeadlineEndsTheWaitWithoutEvents() throws Exception {
        Recorder r = new Recorder(3);
        try (ClientSelectorLoop loop = new ClientSelectorLoop(r, Wait.SLEEP, Clock.PER_TURN)) {
            r.loop = loop;
            r.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
            loop.run(); // no channel and no stop(): only the deadline brings the next turn
        }
        assertEquals(4, r.before);
        assertEquals(3, r.afterClocks.size());
        assertTrue(r.readyClocks.isEmpty());
    }
}
