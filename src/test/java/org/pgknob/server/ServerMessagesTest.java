package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The driver's message of a failed connection names the step it was in ("The connection attempt
 * failed.", "An error occurred while setting up the SSL connection." when a link dropped
 * mid-session): the one line pgknob quotes adds what the network said, so that no one checks the
 * server's SSL settings for a link that is down.
 */
class ServerMessagesTest {
  @Test
  void aConnectionThatGetsNoAnswerSaysItTimedOut() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      SQLException e = connectionFailure(silent.getLocalPort());
      assertEquals("The connection attempt failed. (Read timed out)", ServerMessages.of(e));
    }
  }

  @Test
  void aConnectionTheOtherEndClosesSaysSo() throws Exception {
    try (ServerSocket closing = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread t =
          new Thread(
              () -> {
                try (Socket s = closing.accept()) {
                  s.getInputStream().read(new byte[8]); // the SSLRequest, then hang up
                } catch (java.io.IOException e) {
                  // the test fails on the message instead
                }
              });
      t.start();
      SQLException e = connectionFailure(closing.getLocalPort());
      t.join(5000);
      assertEquals(
          "The connection attempt failed. (the other end closed the connection)",
          ServerMessages.of(e));
    }
  }

  /** How the real driver fails to connect to {@code port} on this host, SSL preferred. */
  private static SQLException connectionFailure(int port) {
    Properties props = new Properties();
    props.setProperty("user", "nobody");
    props.setProperty("password", "x");
    props.setProperty("sslmode", "prefer");
    props.setProperty("connectTimeout", "1");
    props.setProperty("socketTimeout", "1");
    return assertThrows(
        SQLException.class,
        () ->
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + port + "/postgres", props));
  }
}
