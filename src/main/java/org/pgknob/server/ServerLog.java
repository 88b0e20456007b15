package org.pgknob.server;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A managed cluster's server log, where the reason a start failed is written: read from an offset
 * taken before the start, so an older failure is not mistaken for this one.
 */
final class ServerLog {
  private static final List<String> LEVELS = List.of("FATAL:", "PANIC:", "ERROR:");

  private final Path file;

  ServerLog(Path file) {
    this.file = file;
  }

  /** The log's length now: the offset to read a start's messages from; 0 when there is none. */
  long size() {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * The FATAL, PANIC and ERROR lines logged after {@code offset}, without their prefixes, once
   * each, joined by "; "; empty when there are none (or the log cannot be read).
   */
  String messagesSince(long offset) {
    try (RandomAccessFile log = new RandomAccessFile(file.toFile(), "r")) {
      long length = log.length();
      long from = offset > length ? 0 : offset; // the log was rotated or truncated since
      log.seek(from);
      byte[] bytes = new byte[(int) Math.min(length - from, 1 << 20)];
      log.readFully(bytes);
      List<String> important = new ArrayList<>();
      for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
        if (LEVELS.stream().anyMatch(line::contains)) {
          important.add(withoutPrefix(line));
        }
      }
      return String.join("; ", important.stream().distinct().toList());
    } catch (IOException e) {
      return "";
    }
  }

  private static String withoutPrefix(String line) {
    for (String level : LEVELS) {
      int at = line.indexOf(level);
      if (at >= 0) {
        return line.substring(at).replaceAll("\\s+", " ").trim();
      }
    }
    return line;
  }
}
