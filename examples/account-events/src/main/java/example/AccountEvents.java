package example;

import io.tickwork.primitives.order.KeyedSerialExecutor;
import io.tickwork.primitives.search.ByteKeyIndex;
import io.tickwork.primitives.search.IntSearch;
import io.tickwork.primitives.timer.LongTimerQueue;
import io.tickwork.primitives.timer.TimerQueue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * An event router of the kind tickwork's primitives are made for. One dispatch thread reads
 * account events ("CAROL-0042 17", "CAROL-0042 -5": a name in any ASCII case and an amount, at a
 * time in milliseconds), as a network reader would:
 *
 * <ul>
 *   <li>it finds the account from the name's bytes with a {@link ByteKeyIndex}, without building a
 *       {@code String} per event;</li>
 *   <li>it counts the events of the accounts under review: their numbers are a sorted
 *       {@code int[]} searched with {@link IntSearch#of}, whose index reads a parallel array (index
 *       to value, nothing boxed, where a map would box every key);</li>
 *   <li>it re-arms the account's idle timeout on a {@link LongTimerQueue} (a timing wheel it owns, on
 *       the events' own clock) and expires the timeouts that are due;</li>
 *   <li>it hands the event to a {@link KeyedSerialExecutor} keyed by account, which applies each
 *       account's events one at a time, in arrival order, on a shared pool of two threads, so the
 *       account state needs no lock.</li>
 * </ul>
 *
 * <p>At the end it checks what the primitives promise: every account's events were applied in
 * order, the balances equal a sequential replay, and an account was closed for idleness exactly
 * when a sequential scan says it went 30 s without an event (and once more at shut-down). A failed
 * check exits with status 1.
 */
public final class AccountEvents {
    private static final int ACCOUNTS = 2_000;
    private static final int EVENTS = 400_000;
    private static final long IDLE_TIMEOUT_MS = 30_000;

    /** One account's state: touched only by its own serial lane, so plain fields are safe. */
    private static final class Account {
        long balance;
        int lastSeq = -1;
        int outOfOrder;
        int idleCloses;
    }

    public static void main(String[] args) throws Exception {
        // The account names, sorted as ByteKeyIndex requires (unsigned bytes, ASCII case folded;
        // String's own order is not that for every name), so name i is key i.
        String[] owners = {"alice", "bob", "carol", "dave", "erin"};
        List<String> names = new ArrayList<>();
        for (int i = 0; i < ACCOUNTS; i++) {
            names.add(String.format("%s-%04d", owners[i % owners.length], i));
        }
        names.sort(Comparator.comparing(n -> n.getBytes(StandardCharsets.UTF_8), ByteKeyIndex.order(true)));
        List<byte[]> keys = new ArrayList<>();
        for (String name : names) {
            keys.add(name.getBytes(StandardCharsets.UTF_8));
        }
        ByteKeyIndex index = ByteKeyIndex.build(keys, true);

        // The input: events as bytes, with non-decreasing times and bursts of silence.
        SplittableRandom random = new SplittableRandom(42);
        byte[][] lines = new byte[EVENTS][];
        long[] times = new long[EVENTS];
        long now = 0;
        for (int e = 0; e < EVENTS; e++) {
            now += random.nextInt(20_000) == 0 ? random.nextInt(120_000) : random.nextInt(3);
            times[e] = now;
            String name = names.get(random.nextInt(ACCOUNTS)).toUpperCase(Locale.ROOT); // lookups ignore ASCII case
            lines[e] = (name + " " + (random.nextInt(201) - 100)).getBytes(StandardCharsets.US_ASCII);
        }

        // Accounts under review, by number, with a reason each: a sorted int[] and a parallel array.
        int[] reviewed = IntStream.range(0, ACCOUNTS).filter(i -> i % 7 == 3).toArray();
        String[] reason = new String[reviewed.length];
        for (int i = 0; i < reviewed.length; i++) {
            reason[i] = i % 2 == 0 ? "chargeback" : "identity check";
        }
        IntSearch underReview = IntSearch.of(reviewed);
        int[] reviewedEvents = new int[reviewed.length]; // parallel to reviewed

        Account[] accounts = new Account[ACCOUNTS];
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts[i] = new Account();
        }
        long[] timerOf = new long[ACCOUNTS]; // the handle of each account's armed timeout, 0 if none
        int[] seqOf = new int[ACCOUNTS];
        // The events' clock is in milliseconds from 0; 1 ms ticks over 64 s keep every 30 s timeout
        // on the wheel. Timers are keyed by account number: long payloads, nothing boxed.
        LongTimerQueue timeouts = TimerQueue.builder(TimeUnit.MILLISECONDS, 0)
                .tick(Duration.ofMillis(1))
                .span(Duration.ofSeconds(64))
                .buildLong();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        KeyedSerialExecutor<Integer> perAccount = KeyedSerialExecutor.create(pool);
        int[] closes = {0};
        long elapsedMs;
        // try-with-resources and finally: a failure on the way still ends the executor and the
        // pool, so the JVM exits (the pool's threads would otherwise keep it alive)
        try (perAccount) {
            long started = System.nanoTime();
            for (int e = 0; e < EVENTS; e++) {
                byte[] line = lines[e];
                int space = indexOf(line, (byte) ' ');
                int id = index.find(line, 0, space);
                if (id < 0) {
                    throw new IllegalStateException("unknown account in event " + e);
                }
                long amount = Long.parseLong(new String(line, space + 1, line.length - space - 1, StandardCharsets.US_ASCII));
                int r = underReview.indexOf(id);
                if (r >= 0) {
                    reviewedEvents[r]++; // and reason[r] says why the account is watched
                }

                // Timeouts first: an account idle for 30 s before this event is closed before it.
                timeouts.expire(times[e], expired -> {
                    int account = (int) expired;
                    timerOf[account] = 0;
                    closes[0]++;
                    perAccount.execute(account, () -> accounts[account].idleCloses++);
                });
                if (timerOf[id] == 0 || !timeouts.reschedule(timerOf[id], times[e] + IDLE_TIMEOUT_MS)) {
                    timerOf[id] = timeouts.schedule(times[e] + IDLE_TIMEOUT_MS, id);
                }

                int seq = seqOf[id]++;
                Account account = accounts[id];
                perAccount.execute(id, () -> {
                    if (seq != account.lastSeq + 1) {
                        account.outOfOrder++;
                    }
                    account.lastSeq = seq;
                    account.balance += amount;
                });
            }

            // Shutting down closes every account that is still open.
            timeouts.expire(Long.MAX_VALUE, expired -> {
                int account = (int) expired;
                timerOf[account] = 0;
                closes[0]++;
                perAccount.execute(account, () -> accounts[account].idleCloses++);
            });

            // close(): no more tasks are accepted, and it returns when every accepted one has run
            // (unless this thread is interrupted: isTerminated() then says false)
            perAccount.close();
            elapsedMs = (System.nanoTime() - started) / 1_000_000;
        } finally {
            pool.shutdown();
        }
        KeyedSerialExecutor.Stats stats = perAccount.stats();
        if (!perAccount.isTerminated()
                || stats.completedTasks() != EVENTS + closes[0]
                || stats.failedTasks() != 0
                || stats.rejectedTasks() != 0) {
            throw new IllegalStateException("tasks lost or failed: " + perAccount);
        }
        if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the pool did not terminate within 10 s");
        }

        // The sequential reference.
        Map<String, Integer> idOf = new HashMap<>();
        for (int id = 0; id < ACCOUNTS; id++) {
            idOf.put(names.get(id), id);
        }
        long[] balance = new long[ACCOUNTS];
        int[] eventsOf = new int[ACCOUNTS];
        long[] lastSeen = new long[ACCOUNTS];
        Arrays.fill(lastSeen, Long.MIN_VALUE);
        int expectedCloses = 0;
        for (int e = 0; e < EVENTS; e++) {
            String text = new String(lines[e], StandardCharsets.US_ASCII);
            int id = idOf.get(text.substring(0, text.indexOf(' ')).toLowerCase(Locale.ROOT));
            if (lastSeen[id] == Long.MIN_VALUE || times[e] >= lastSeen[id] + IDLE_TIMEOUT_MS) {
                expectedCloses++; // the account's first event, or its first after a close
            }
            lastSeen[id] = times[e];
            balance[id] += Long.parseLong(text.substring(text.indexOf(' ') + 1));
            eventsOf[id]++;
        }
        int wrongReviewCounts = 0;
        int chargebackEvents = 0;
        for (int i = 0; i < reviewed.length; i++) {
            wrongReviewCounts += reviewedEvents[i] == eventsOf[reviewed[i]] ? 0 : 1;
            chargebackEvents += reason[i].equals("chargeback") ? reviewedEvents[i] : 0;
        }

        int wrongBalances = 0;
        int outOfOrder = 0;
        int closedAccounts = 0;
        for (int id = 0; id < ACCOUNTS; id++) {
            wrongBalances += accounts[id].balance == balance[id] ? 0 : 1;
            outOfOrder += accounts[id].outOfOrder;
            closedAccounts += accounts[id].idleCloses;
        }
        long prefix = index.prefixRange("ALICE-00".getBytes(StandardCharsets.US_ASCII), 0, 8);
        int prefixCount = (int) prefix - (int) (prefix >>> 32);

        System.out.printf(
                "%,d events for %,d accounts in %d ms on a 2-thread pool; %,d idle closes (expected %,d); "
                        + "%d balances wrong; %d events out of order; %d accounts start with \"alice-00\"; "
                        + "%,d events of accounts under review (%,d for chargebacks, %s), %d counts wrong%n",
                EVENTS, ACCOUNTS, elapsedMs, closes[0], expectedCloses, wrongBalances, outOfOrder, prefixCount,
                Arrays.stream(reviewedEvents).sum(), chargebackEvents, underReview, wrongReviewCounts);
        boolean ok = wrongBalances == 0
                && outOfOrder == 0
                && closes[0] == expectedCloses
                && closedAccounts == expectedCloses
                && prefixCount == 20
                && wrongReviewCounts == 0
                && chargebackEvents > 0;
        System.out.println(ok ? "all checks passed" : "CHECK FAILED");
        System.exit(ok ? 0 : 1);
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        throw new IllegalArgumentException("no '" + (char) b + "' in the event");
    }

    private AccountEvents() {}
}
