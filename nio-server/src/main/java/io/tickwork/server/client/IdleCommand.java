package io.tickwork.server.client;

import java.io.PrintStream;

final class IdleCommand {
  private IdleCommand() {}

  static int run(String[] argv, PrintStream out, PrintStream err) throws InterruptedException {
    throw new UsageException("not yet");
  }
}
