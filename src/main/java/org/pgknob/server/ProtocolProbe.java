package org.pgknob.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Tells whether what listens on a port speaks PostgreSQL, after a connection failed in a way that
 * does not say (a timeout, an SSL or protocol error). The JDBC driver reads an SSH server's banner
 * ("SSH-2.0-...") as the answer to its SSL request (it starts with 'S', "SSL accepted") and then
 * waits for a TLS handshake until it times out: "no answer within 10 s" would send the user looking
 * at firewalls. A PostgreSQL server never speaks first and answers an SSL request with one byte, S
 * or N; anything else is another service, whose first words name it.
 */
final class ProtocolProbe {
  private static final int WAIT_MS = 1500;
  private static final int SHOWN_CHARS = 60;

  /** SSLRequest: length 8, code 80877103 (PostgreSQL's protocol, 53.2.9). */
  private static final byte[] SSL_REQUEST = {0, 0, 0, 8, 0x04, (byte) 0xd2, 0x16, 0x2f};

  private ProtocolProbe() {}

  /** What a service other than PostgreSQL answered at host:port, or empty (PostgreSQL, or mute). */
  static Optional<String> foreignAnswer(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), WAIT_MS);
      socket.setSoTimeout(WAIT_MS);
      InputStream in = socket.getInputStream();
      byte[] unasked = readSome(in);
      if (unasked.length > 0) {
        return Optional.of(shown(unasked)); // it spoke first: SSH, SMTP, FTP, ...
      }
      OutputStream out = socket.getOutputStream();
      out.write(SSL_REQUEST);
      out.flush();
      byte[] reply = readSome(in);
      boolean postgres = reply.length == 1 && (reply[0] == 'S' || reply[0] == 'N');
      return postgres || reply.length == 0 ? Optional.empty() : Optional.of(shown(reply));
    } catch (IOException e) {
      return Optional.empty(); // nothing to add to the driver's own error
    }
  }

  private static byte[] readSome(InputStream in) throws IOException {
    byte[] buffer = new byte[256];
    try {
      int n = in.read(buffer);
      return n <= 0 ? new byte[0] : java.util.Arrays.copyOf(buffer, n);
    } catch (SocketTimeoutException e) {
      return new byte[0];
    }
  }

  /** The answer's first line, printable characters only, shortened. */
  private static String shown(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    String line = text.lines().findFirst().orElse("").replaceAll("[^\\x20-\\x7e]", "?").strip();
    return line.length() <= SHOWN_CHARS ? line : line.substring(0, SHOWN_CHARS) + "...";
  }
}
