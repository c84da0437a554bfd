package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * Hudi's {@code mergeArchivePlan}: the small archive files a merge replaces and the name of the
 * file replacing them. Written before the merged file and deleted after the last source, so a plan
 * found later tells exactly which step a merge stopped at (and readers which copy to trust).
 *
 * <p>Encoded as Hudi encodes Avro metadata (an Avro object container file holding one {@code
 * HoodieMergeArchiveFilePlan} record with its schema, no codec), so Hudi 0.15's archiver and reader
 * parse ours and we parse theirs. Hudi writes each candidate as a full path; only the file name is
 * used here, resolved in the archive folder the plan lies in.
 *
 * @param candidates names of the archive files being merged, oldest version first
 * @param mergedFile name of the archive file they are merged into
 */
public record ArchiveMergePlan(List<String> candidates, String mergedFile) {
  public static final String FILE_NAME = "mergeArchivePlan";

  private static final Schema SCHEMA =
      new Schema.Parser()
          .parse(
              """
              {"type":"record","name":"HoodieMergeArchiveFilePlan",\
              "namespace":"org.apache.hudi.avro.model","fields":[\
              {"name":"version","type":["int","null"],"default":1},\
              {"name":"candidate","type":["null",{"type":"array","items":\
              {"type":"string","avro.java.string":"String"}}],"default":null},\
              {"name":"mergedArchiveFileName","type":["null",\
              {"type":"string","avro.java.string":"String"}],"default":null}]}""");

  public ArchiveMergePlan {
    candidates = List.copyOf(candidates);
    requireNonNull(mergedFile, "mergedFile is null");
    for (String name : candidates) {
      if (ArchiveFileName.version(name).isEmpty()) {
        throw new IllegalArgumentException("merge candidate '" + name + "' is not an archive file");
      }
    }
    if (ArchiveFileName.version(mergedFile).isEmpty()) {
      throw new IllegalArgumentException("merged file '" + mergedFile + "' is not an archive file");
    }
  }

  public static StorageLocation location(StorageLocation archiveFolder) {
    return archiveFolder.resolve(FILE_NAME);
  }

  /**
   * The files a reader skips while this plan exists, so that it sees each entry once: the merged
   * file while every candidate is still there (it may be incomplete, and they hold all of it), the
   * candidates left once one is gone (sources are deleted only after the merged file is whole).
   *
   * @param present names of the files in the archive folder now
   */
  public Set<String> shadowed(Collection<String> present) {
    if (!present.contains(mergedFile) || candidates.contains(mergedFile)) {
      return Set.of();
    }
    if (present.containsAll(candidates)) {
      return Set.of(mergedFile);
    }
    Set<String> left = new LinkedHashSet<>(candidates);
    left.retainAll(present);
    return left;
  }

  /** The plan's bytes: candidates as full locations, as Hudi writes them. */
  public byte[] encode(StorageLocation archiveFolder) {
    GenericRecord record = new GenericData.Record(SCHEMA);
    record.put("version", 1);
    record.put(
        "candidate",
        candidates.stream().map(name -> archiveFolder.resolve(name).toString()).toList());
    record.put("mergedArchiveFileName", mergedFile);
    return AvroInstantFiles.serialize(record);
  }

  /**
   * The plan in {@code archiveFolder}: empty when there is none, {@link Read.Unreadable} when its
   * bytes do not parse (a writer died while writing it, before any merged byte).
   */
  public static Optional<Read> read(MetaStorage storage, StorageLocation archiveFolder)
      throws IOException {
    byte[] bytes;
    try {
      bytes = storage.read(location(archiveFolder));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    return Optional.of(decode(bytes));
  }

  public static Read decode(byte[] bytes) {
    try (DataFileReader<GenericRecord> reader =
        new DataFileReader<>(new SeekableByteArrayInput(bytes), new PlanReader())) {
      if (!reader.hasNext()) {
        return new Read.Unreadable("no record in it");
      }
      GenericRecord record = reader.next();
      Object merged = record.get("mergedArchiveFileName");
      Object candidates = record.get("candidate");
      if (merged == null || merged.toString().isEmpty() || candidates == null) {
        return new Read.Unreadable("no merged file name or candidate list");
      }
      Set<String> names = new LinkedHashSet<>();
      for (Object candidate : (Collection<?>) candidates) {
        names.add(fileName(candidate.toString()));
      }
      List<String> sorted = new ArrayList<>(names);
      for (String name : sorted) {
        if (ArchiveFileName.version(name).isEmpty()) {
          return new Read.Unreadable("candidate '" + name + "' is not an archive file");
        }
      }
      sorted.sort(java.util.Comparator.comparingInt(n -> ArchiveFileName.version(n).getAsInt()));
      String mergedName = fileName(merged.toString());
      if (ArchiveFileName.version(mergedName).isEmpty()) {
        return new Read.Unreadable("merged file '" + mergedName + "' is not an archive file");
      }
      return new Read.Parsed(new ArchiveMergePlan(sorted, mergedName));
    } catch (IOException | AvroRuntimeException | ClassCastException e) {
      return new Read.Unreadable(e.toString());
    }
  }

  private static String fileName(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }

  /**
   * Reads with the shared {@link #SCHEMA} instance where the file's schema is the same: Avro caches
   * resolvers per thread by schema instance and keeps them, so a fresh copy per read would pile up.
   */
  private static final class PlanReader extends GenericDatumReader<GenericRecord> {
    PlanReader() {
      super(null, SCHEMA);
    }

    @Override
    public void setSchema(Schema writer) {
      super.setSchema(writer.equals(SCHEMA) ? SCHEMA : writer);
    }
  }

  /** What reading a plan file found. */
  public sealed interface Read {
    record Parsed(ArchiveMergePlan plan) implements Read {}

    record Unreadable(String reason) implements Read {}
  }
}
