package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.timelinearchive.storage.StorageLocation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One manifest of the LSM history, {@code manifest_N}: the history files of snapshot N, as Hudi's
 * {@code HoodieLSMTimelineManifest} writes them in JSON, {@code {"files": [{"fileName":
 * "<min>_<max>_<layer>.parquet", "fileLen": <bytes>}, ...]}}. Manifests are written once and never
 * changed; fields Hudi does not know are ignored, as Hudi ignores them.
 *
 * @param location the manifest file
 * @param version its N
 * @param files the history files it lists, in its order, each once
 */
public record LsmManifest(StorageLocation location, int version, List<Entry> files) {
  private static final String PREFIX = "manifest_";
  private static final Pattern NAME = Pattern.compile("^" + PREFIX + "(\\d+)$");
  private static final ObjectMapper JSON = new ObjectMapper();
  // Hudi writes manifests with Jackson's default pretty printer; its line feed is the platform's,
  // Hudi's files (written on Linux) have \n, and so do ours wherever we run
  private static final ObjectWriter PRETTY =
      JSON.writer(
          new DefaultPrettyPrinter()
              .withObjectIndenter(new DefaultIndenter("  ", "\n"))
              .withArrayIndenter(DefaultPrettyPrinter.FixedSpaceIndenter.instance));

  /**
   * A history file a manifest lists.
   *
   * @param name the file's name, parsed
   * @param length its length in bytes when the manifest was written
   */
  public record Entry(LsmFileName name, long length) {
    public Entry {
      requireNonNull(name, "name is null");
    }
  }

  public LsmManifest {
    requireNonNull(location, "location is null");
    files = List.copyOf(files);
  }

  /** The name of manifest {@code version}. */
  public static String fileName(int version) {
    return PREFIX + version;
  }

  /** The version a file name says, if it is a manifest's. */
  public static OptionalInt version(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches() || m.group(1).length() > 9) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(Integer.parseInt(m.group(1)));
  }

  /**
   * The bytes of a manifest listing {@code files} in their order, as Hudi 1.0.1 writes one ({@code
   * HoodieLSMTimelineManifest.toJsonString()}): Jackson's pretty printer, UTF-8, no line feed at
   * the end.
   */
  public static byte[] json(List<Entry> files) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode array = root.putArray("files");
    for (Entry e : files) {
      array.addObject().put("fileName", e.name().fileName()).put("fileLen", e.length());
    }
    try {
      return PRETTY.writeValueAsBytes(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot print a manifest", e);
    }
  }

  /**
   * Parses a manifest's bytes.
   *
   * @throws CorruptHistoryFileException naming the file if it is not such a manifest
   */
  public static LsmManifest parse(StorageLocation location, int version, byte[] bytes)
      throws CorruptHistoryFileException {
    if (bytes.length == 0) {
      throw new CorruptHistoryFileException(location, "the manifest is empty");
    }
    JsonNode root;
    try {
      root = JSON.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw new CorruptHistoryFileException(
          location, "not a JSON manifest: " + e.getOriginalMessage(), e);
    } catch (java.io.IOException e) {
      throw new CorruptHistoryFileException(location, "not a JSON manifest: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new CorruptHistoryFileException(location, "the manifest is not a JSON object");
    }
    JsonNode files = root.get("files");
    if (files == null || !files.isArray()) {
      throw new CorruptHistoryFileException(location, "the manifest has no \"files\" array");
    }
    List<Entry> entries = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < files.size(); i++) {
      JsonNode file = files.get(i);
      String where = "files[" + i + "]";
      JsonNode name = file.get("fileName");
      JsonNode length = file.get("fileLen");
      if (name == null || !name.isTextual()) {
        throw new CorruptHistoryFileException(location, where + " has no \"fileName\" string");
      }
      if (length == null || !length.canConvertToLong() || !length.isIntegralNumber()) {
        throw new CorruptHistoryFileException(
            location, where + " (" + name.asText() + ") has no \"fileLen\" number");
      }
      Optional<LsmFileName> parsed = LsmFileName.parse(name.asText());
      if (parsed.isEmpty()) {
        throw new CorruptHistoryFileException(
            location,
            where + " names '" + name.asText() + "', not a <min>_<max>_<layer>.parquet file");
      }
      if (seen.add(name.asText())) {
        // a file listed twice is read once
        entries.add(new Entry(parsed.get(), length.asLong()));
      }
    }
    return new LsmManifest(location, version, entries);
  }
}
