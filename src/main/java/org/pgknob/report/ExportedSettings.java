package org.pgknob.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.pgknob.Json;
import org.pgknob.PgknobException;

/**
 * Reads back a configuration pgknob exported (or one a DBA wrote the same way), for {@code pgknob
 * apply --from}: a postgresql.conf fragment ({@code best-*.conf}), or JSON, either pgknob's export
 * (its {@code settings} map) or a plain name-to-value object. The ALTER SYSTEM script is not read:
 * psql runs it.
 */
public final class ExportedSettings {
  private ExportedSettings() {}

  /**
   * The settings of {@code file}, name to value as PostgreSQL takes it, in file order.
   *
   * @throws PgknobException when the file cannot be read, is not a configuration, or holds none
   */
  public static Map<String, String> read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new PgknobException(
          "no such file: " + file, "give a best-*.conf or best-*.json of a session folder");
    } catch (IOException e) {
      throw new PgknobException(
          "cannot read " + file + ": " + e.getMessage(), "check the path and its permissions", e);
    }
    String name = String.valueOf(file.getFileName());
    Map<String, String> settings =
        text.stripLeading().startsWith("{") ? json(name, text) : ConfFile.parse(name, text);
    if (settings.isEmpty()) {
      throw new PgknobException(
          name + " holds no setting: nothing to apply",
          "export a configuration that changes something (pgknob export RUN --track ...)");
    }
    return settings;
  }

  private static Map<String, String> json(String name, String text) {
    JsonNode root;
    try {
      root = Json.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw new PgknobException(
          name + " is not valid JSON: " + e.getOriginalMessage(),
          "give pgknob's JSON export or a postgresql.conf fragment");
    }
    // pgknob's export keeps the values under "settings" beside details; a plain map is the values.
    JsonNode values = root.has("settings") ? root.get("settings") : root;
    if (!values.isObject()) {
      throw new PgknobException(
          name + ": \"settings\" is not an object of name to value",
          "write {\"settings\": {\"work_mem\": \"16MB\"}}");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : values.properties()) {
      if (!e.getValue().isValueNode() || e.getValue().isNull()) {
        throw new PgknobException(
            name + ": the value of " + e.getKey() + " is not a string or number",
            "write each setting as \"name\": \"value\"");
      }
      out.put(e.getKey().toLowerCase(java.util.Locale.ROOT), e.getValue().asText());
    }
    return out;
  }
}
