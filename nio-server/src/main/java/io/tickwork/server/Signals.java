package io.tickwork.server;

/**
 * SIGTERM, SIGINT and SIGHUP handling that lets {@link Main} stop gracefully and exit 0 (a JVM
 * ended by these signals through shutdown hooks alone exits 143, 130 or 129). A hang-up (the
 * terminal closed) is a stop like the others: with {@code --processes} the launcher then stops its
 * workers and waits for them, rather than exiting at once while they drain unwatched. A signal
 * ignored when the JVM started (a server run under {@code nohup}) stays ignored: the JVM installs
 * no handler for it. Uses {@code sun.misc.Signal} (module jdk.unsupported, present in every
 * OpenJDK build); without it, shutdown hooks still close the server gracefully, only the exit
 * code differs.
 */
final class Signals {
    private Signals() {}

    @SuppressWarnings("restriction")
    static void onTermination(Runnable action) {
        for (String name : new String[] {"TERM", "INT", "HUP"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), s -> action.run());
            } catch (IllegalArgumentException | LinkageError unsupported) {
                // signal not available on this platform: shutdown hooks remain
            }
        }
    }

    /**
     * A worker of {@code --processes}: stops on SIGTERM only, which its launcher sends (a second
     * stop signal comes through standard input: {@code WorkerLauncher.onLauncherGone}); SIGINT and
     * SIGHUP are ignored once this is called, since a
     * terminal's Ctrl-C or hang-up reaches the whole process group, and counted beside the
     * launcher's SIGTERM it would read as a second signal and cut the drain short. Before this
     * call (while the JVM starts) they still end the worker, as the launcher expects.
     */
    @SuppressWarnings("restriction")
    static void onWorkerTermination(Runnable action) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), s -> action.run());
        } catch (IllegalArgumentException | LinkageError unsupported) {
            return; // no signals here: shutdown hooks remain
        }
        for (String name : new String[] {"INT", "HUP"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), sun.misc.SignalHandler.SIG_IGN);
            } catch (IllegalArgumentException | LinkageError unsupported) {
                // not available on this platform
            }
        }
    }
}
