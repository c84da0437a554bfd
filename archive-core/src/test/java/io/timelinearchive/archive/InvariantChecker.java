package io.timelinearchive.archive;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;

/**
 * Checks the archive protocol's invariants 1–3 on a table, independently of the archiver: it lists
 * and reads the storage itself and parses archive files with its own reading of the Hudi log-block
 * layout, sharing no code with the archiver or its reader.
 *
 * <p>Instant file names are parsed here with a regular expression of its own, so a bug in the
 * product's name parsing cannot hide itself either.
 */
public final class InvariantChecker {
  private static final Pattern INSTANT =
      Pattern.compile("^(\\d+)\\.(\\w+)(\\.(requested|inflight))?$");
  private static final Pattern ARCHIVE = Pattern.compile("^\\.commits_\\.archive\\.(\\d+)(_.*)?$");
  private static final byte[] MAGIC = "#HUDI#".getBytes(US_ASCII);
  private static final Map<String, Schema> SCHEMAS = new java.util.concurrent.ConcurrentHashMap<>();

  /** One archived record as read back: name-level identity and the raw bytes it carries. */
  public record Archived(String time, String action, String state, byte[] raw) {
    public String id() {
      return time + "/" + action + "/" + state;
    }
  }

  private final Map<String, byte[]> original;

  /**
   * @param original every instant file of the table before any archival, by file name
   */
  public InvariantChecker(Map<String, byte[]> original) {
    this.original = new TreeMap<>(original);
  }

  /** The original bytes of an instant file. */
  public byte[] original(String name) {
    return original.get(name);
  }

  /** Reads every instant file directly below {@code meta}, by name. */
  public static Map<String, byte[]> snapshot(MetaStorage storage, StorageLocation meta)
      throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    for (FileEntry e : storage.list(meta).toList()) {
      if (INSTANT.matcher(e.name()).matches() || e.name().matches("^\\d+\\.inflight$")) {
        files.put(e.name(), storage.read(e.location()));
      }
    }
    return files;
  }

  /**
   * Checks invariants 1–3 now.
   *
   * @return the violations found, empty when all hold
   */
  public List<String> check(
      MetaStorage storage, StorageLocation meta, StorageLocation archiveFolder) throws IOException {
    List<String> violations = new ArrayList<>();
    Map<String, byte[]> active = snapshot(storage, meta);
    List<Archived> archived = readArchive(storage, archiveFolder, violations);
    // Nothing in the raw files may be hidden from a reader by a merge plan.
    java.util.Set<String> visible = new java.util.HashSet<>();
    archived.forEach(a -> visible.add(a.id()));
    for (Archived a : readArchive(storage, archiveFolder, new ArrayList<>(), false)) {
      if (!visible.contains(a.id())) {
        violations.add("hidden by the merge plan: " + a.id());
      }
    }

    // 3. no duplicates
    Map<String, Integer> seen = new HashMap<>();
    for (Archived a : archived) {
      if (seen.merge(a.id(), 1, Integer::sum) == 2) {
        violations.add("archived twice: " + a.id());
      }
    }
    Map<String, Archived> byId = new HashMap<>();
    archived.forEach(a -> byId.putIfAbsent(a.id(), a));

    // 1. nothing lost, byte for byte
    for (Map.Entry<String, byte[]> e : original.entrySet()) {
      String name = e.getKey();
      byte[] now = active.get(name);
      if (now != null) {
        if (!Arrays.equals(now, e.getValue())) {
          violations.add("changed in the active timeline: " + name);
        }
        continue;
      }
      Archived a = byId.get(id(name));
      if (a == null) {
        violations.add("lost: " + name + " is neither active nor archived");
      } else if (!Arrays.equals(a.raw(), e.getValue())) {
        violations.add("archived with different bytes: " + name);
      }
    }

    // 2. no holes: per action, the completed instants gone from the active timeline are the oldest
    // ones (archival trims every action's timeline from its oldest end)
    Map<String, List<String>> completedByAction = new TreeMap<>();
    for (String name : original.keySet()) {
      if (isCompleted(name)) {
        completedByAction
            .computeIfAbsent(key(name).split("/")[1], k -> new ArrayList<>())
            .add(name);
      }
    }
    for (List<String> names : completedByAction.values()) {
      names.sort(null);
      String oldestActive = null;
      for (String name : names) {
        if (active.containsKey(name)) {
          if (oldestActive == null) {
            oldestActive = name;
          }
        } else if (oldestActive != null) {
          violations.add(
              "hole: " + name + " is gone while the older " + oldestActive + " is active");
        }
      }
    }
    for (String name : original.keySet()) {
      if (isCompleted(name) && !active.containsKey(name)) {
        for (String other : active.keySet()) {
          if (!isCompleted(other) && key(other).equals(key(name))) {
            violations.add(
                "pending-looking: "
                    + other
                    + " is active but its completed file "
                    + name
                    + " is gone");
          }
        }
      }
    }
    return violations;
  }

  /**
   * Every record of the archive files a reader reads, in file then block order: while a merge plan
   * ({@code mergeArchivePlan}) is there, the merged file is skipped if all its sources are there,
   * else the sources left are.
   */
  public static List<Archived> readArchive(
      MetaStorage storage, StorageLocation archiveFolder, List<String> problems)
      throws IOException {
    return readArchive(storage, archiveFolder, problems, true);
  }

  /** As {@link #readArchive(MetaStorage, StorageLocation, List)}, or every file's if not asked. */
  public static List<Archived> readArchive(
      MetaStorage storage, StorageLocation archiveFolder, List<String> problems, boolean asReader)
      throws IOException {
    List<FileEntry> listing = storage.list(archiveFolder).toList();
    java.util.Set<String> names = new java.util.HashSet<>();
    listing.forEach(e -> names.add(e.name()));
    java.util.Set<String> skip = asReader ? shadowedByPlan(storage, listing, names) : Set.of();
    TreeMap<Long, FileEntry> files = new TreeMap<>();
    for (FileEntry e : listing) {
      Matcher m = ARCHIVE.matcher(e.name());
      if (m.matches() && !skip.contains(e.name())) {
        files.put(Long.parseLong(m.group(1)), e);
      }
    }
    List<Archived> records = new ArrayList<>();
    for (FileEntry file : files.values()) {
      byte[] bytes = storage.read(file.location());
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.remaining() > 0) {
        int start = buf.position();
        if (buf.remaining() < 14) {
          break; // a torn tail: readers skip it
        }
        byte[] magic = new byte[6];
        buf.get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
          problems.add("no block magic at " + file.name() + "@" + start);
          break;
        }
        long size = buf.getLong();
        if (size > buf.remaining()) {
          break; // torn tail
        }
        ByteBuffer block = buf.slice(buf.position(), (int) size);
        buf.position(buf.position() + (int) size);
        block.getInt(); // format version
        int type = block.getInt();
        Map<Integer, String> header = new HashMap<>();
        int entries = block.getInt();
        for (int i = 0; i < entries; i++) {
          int k = block.getInt();
          byte[] v = new byte[block.getInt()];
          block.get(v);
          header.put(k, new String(v, UTF_8));
        }
        byte[] content = new byte[(int) block.getLong()];
        block.get(content);
        if (type != 3) {
          problems.add("not a data block at " + file.name() + "@" + start);
          continue;
        }
        // One parse per distinct schema: Avro caches resolvers per schema instance on the calling
        // thread and does not let go of them, so a fresh parse per block would pile up.
        Schema schema =
            SCHEMAS.computeIfAbsent(header.get(2), json -> new Schema.Parser().parse(json));
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(content));
        in.readInt(); // data block version
        int n = in.readInt();
        GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(schema);
        // A compressed content is made from an earlier one of the block: older archives name the
        // previous content of its kind as zlib dictionary, newer ones an entry some contents back.
        java.util.Map<String, byte[]> previousOfKind = new java.util.HashMap<>();
        List<byte[]> earlier = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          byte[] record = new byte[in.readInt()];
          in.readFully(record);
          GenericRecord r = reader.read(null, DecoderFactory.get().binaryDecoder(record, null));
          String kind = r.get("actionType") + "/" + r.get("actionState");
          byte[] rawBytes = rawBytes(r, previousOfKind.get(kind), earlier);
          if (rawBytes != null) {
            previousOfKind.put(kind, rawBytes);
            earlier.add(rawBytes);
          }
          records.add(
              new Archived(
                  String.valueOf(r.get("commitTime")),
                  String.valueOf(r.get("actionType")),
                  String.valueOf(r.get("actionState")),
                  rawBytes));
        }
      }
    }
    return records;
  }

  /**
   * The instant file's bytes an entry carries in {@code timelineArchiveDeflatedContent}: the
   * difference from an earlier content of the block ({@code 0x02}), or a zlib stream against {@code
   * dictionary} if it asks for one; or as they were in {@code timelineArchiveRawContent} (older
   * archives); null for entries without them.
   */
  private static byte[] rawBytes(GenericRecord r, byte[] dictionary, List<byte[]> earlier)
      throws IOException {
    if (field(r, "timelineArchiveDeflatedContent") instanceof ByteBuffer deflated) {
      try {
        byte form = deflated.remaining() > 0 ? deflated.get(deflated.position()) : 0;
        if (form == 0x02 || form == 0x03) {
          return difference(deflated.duplicate(), earlier);
        }
        return inflate(deflated.duplicate(), dictionary);
      } catch (java.util.zip.DataFormatException | RuntimeException e) {
        throw new IOException("damaged compressed content", e);
      }
    }
    if (field(r, "timelineArchiveRawContent") instanceof ByteBuffer raw) {
      byte[] bytes = new byte[raw.remaining()];
      raw.duplicate().get(bytes);
      return bytes;
    }
    return null;
  }

  /**
   * 0x02 (or 0x03), varints (zig-zag) back and length, a big-endian CRC-32C of the content, a zlib
   * stream of the program (0x03: the program as it is): per operation a literal (length, bytes) and
   * a copy from the reference (length, then its start relative to the end of the last copy plus the
   * literal), ending with a copy of none; an empty content ends after its length.
   */
  private static byte[] difference(ByteBuffer value, List<byte[]> earlier)
      throws IOException, java.util.zip.DataFormatException {
    boolean stored = value.get() == 0x03;
    int back = (int) zigZag(value);
    int length = (int) zigZag(value);
    if (length == 0) {
      return new byte[0];
    }
    int crc = value.getInt();
    byte[] reference = back == 0 ? new byte[0] : earlier.get(earlier.size() - back);
    ByteBuffer program = stored ? value.slice() : ByteBuffer.wrap(inflate(value, null));
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(length);
    int cursor = 0;
    while (true) {
      int literal = (int) zigZag(program);
      byte[] bytes = new byte[literal];
      program.get(bytes);
      out.writeBytes(bytes);
      int copy = (int) zigZag(program);
      if (copy == 0) {
        break;
      }
      int from = cursor + literal + (int) zigZag(program);
      out.write(reference, from, copy);
      cursor = from + copy;
    }
    byte[] content = out.toByteArray();
    java.util.zip.CRC32C sum = new java.util.zip.CRC32C();
    sum.update(content);
    if (content.length != length || (int) sum.getValue() != crc || program.hasRemaining()) {
      throw new IOException("compressed content restores to other bytes");
    }
    return content;
  }

  private static long zigZag(ByteBuffer in) {
    long n = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = in.get();
      n |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return (n >>> 1) ^ -(n & 1);
      }
    }
  }

  private static byte[] inflate(ByteBuffer deflated, byte[] dictionary)
      throws IOException, java.util.zip.DataFormatException {
    java.util.zip.Inflater inflater = new java.util.zip.Inflater();
    try {
      inflater.setInput(deflated);
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      byte[] chunk = new byte[8192];
      while (!inflater.finished()) {
        int n = inflater.inflate(chunk);
        if (n == 0 && inflater.needsDictionary()) {
          if (dictionary == null) {
            throw new IOException("compressed content needs a dictionary and has none");
          }
          inflater.setDictionary(dictionary);
          dictionary = null;
          continue;
        }
        if (n == 0 && !inflater.finished() && inflater.needsInput()) {
          throw new IOException("truncated compressed content");
        }
        out.write(chunk, 0, n);
      }
      return out.toByteArray();
    } finally {
      inflater.end();
    }
  }

  private static Object field(GenericRecord r, String name) {
    return r.getSchema().getField(name) == null ? null : r.get(name);
  }

  private static java.util.Set<String> shadowedByPlan(
      MetaStorage storage, List<FileEntry> listing, java.util.Set<String> names)
      throws IOException {
    FileEntry planFile =
        listing.stream().filter(e -> e.name().equals("mergeArchivePlan")).findFirst().orElse(null);
    if (planFile == null) {
      return Set.of();
    }
    List<String> candidates = new ArrayList<>();
    String merged;
    try (org.apache.avro.file.DataFileReader<GenericRecord> in =
        new org.apache.avro.file.DataFileReader<>(
            new org.apache.avro.file.SeekableByteArrayInput(storage.read(planFile.location())),
            new GenericDatumReader<>())) {
      GenericRecord plan = in.next();
      for (Object c : (java.util.Collection<?>) plan.get("candidate")) {
        String path = c.toString();
        candidates.add(path.substring(path.lastIndexOf('/') + 1));
      }
      merged = plan.get("mergedArchiveFileName").toString();
    } catch (IOException | RuntimeException e) {
      return Set.of(); // a plan cut off while written: no merge began
    }
    if (!names.contains(merged)) {
      return Set.of();
    }
    if (names.containsAll(candidates)) {
      return Set.of(merged);
    }
    return new java.util.HashSet<>(candidates);
  }

  /** (time/action/state) of an instant file name, with Hudi's naming quirks undone. */
  static String id(String name) {
    if (name.matches("^\\d+\\.inflight$")) {
      return name.substring(0, name.indexOf('.')) + "/commit/INFLIGHT";
    }
    Matcher m = INSTANT.matcher(name);
    if (!m.matches()) {
      throw new IllegalArgumentException("not an instant file name: " + name);
    }
    String state = m.group(4) == null ? "COMPLETED" : m.group(4).toUpperCase(java.util.Locale.ROOT);
    return m.group(1) + "/" + m.group(2) + "/" + state;
  }

  private static boolean isCompleted(String name) {
    return id(name).endsWith("/COMPLETED");
  }

  /** (time, action completed as): a compaction's files share a key with its commit. */
  private static String key(String name) {
    String[] parts = id(name).split("/");
    String action =
        switch (parts[1]) {
          case "compaction" -> "commit";
          case "logcompaction" -> "deltacommit";
          default -> parts[1];
        };
    return parts[0] + "/" + action;
  }
}
