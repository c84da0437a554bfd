package io.timelinearchive.format;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.avro.Schema;

/**
 * The Avro schemas of Apache Hudi 0.15's archive and of the Avro instant files, parsed once from
 * this package's {@code .avsc} resources. Names, namespaces, field order, types, defaults and the
 * {@code avro.java.string} properties equal those of Hudi's generated classes, so the writer schema
 * JSON in our block headers is what Hudi itself would write (plus our trailing raw-content field).
 *
 * <p>The instances are shared: never add properties to them.
 */
public final class ArchiveSchemas {
  public static final String NAMESPACE = "org.apache.hudi.avro.model";

  public static final Schema COMMIT_METADATA = parse("HoodieCommitMetadata");
  public static final Schema WRITE_STAT =
      COMMIT_METADATA
          .getField("partitionToWriteStats")
          .schema()
          .getTypes()
          .get(1)
          .getValueType()
          .getElementType();
  public static final Schema REPLACE_COMMIT_METADATA =
      parse("HoodieCommitMetadata", "HoodieReplaceCommitMetadata");
  public static final Schema CLEAN_METADATA = parse("HoodieCleanMetadata");
  public static final Schema CLEANER_PLAN = parse("HoodieCleanerPlan");
  public static final Schema COMPACTION_METADATA =
      parse("HoodieCommitMetadata", "HoodieCompactionMetadata");
  public static final Schema ROLLBACK_METADATA = parse("HoodieRollbackMetadata");
  public static final Schema ROLLBACK_PLAN = parse("HoodieRollbackPlan");
  public static final Schema SAVEPOINT_METADATA = parse("HoodieSavepointMetadata");
  public static final Schema COMPACTION_PLAN = parse("HoodieCompactionPlan");
  public static final Schema REQUESTED_REPLACE_METADATA = parse("HoodieRequestedReplaceMetadata");
  public static final Schema INDEX_COMMIT_METADATA = parse("HoodieIndexCommitMetadata");

  /** The entry we write: Hudi's 16 fields, then {@link EntryFields#DEFLATED_CONTENT}. */
  public static final Schema ARCHIVED_META_ENTRY =
      parse(
          // Every record the entry names, in the order of its fields, so that each nested type
          // is defined at its first use, as in Hudi's own schema JSON.
          "HoodieCommitMetadata",
          "HoodieCleanMetadata",
          "HoodieCompactionMetadata",
          "HoodieRollbackMetadata",
          "HoodieSavepointMetadata",
          "HoodieCompactionPlan",
          "HoodieCleanerPlan",
          "HoodieReplaceCommitMetadata",
          "HoodieRequestedReplaceMetadata",
          "HoodieIndexCommitMetadata",
          "HoodieArchivedMetaEntry");

  /** Apache Hudi 0.15's own {@code HoodieArchivedMetaEntry}: our entry without the raw content. */
  public static final Schema HUDI_ARCHIVED_META_ENTRY =
      select(ARCHIVED_META_ENTRY, f -> !f.equals(EntryFields.DEFLATED_CONTENT));

  /**
   * A reader schema for an entry's metadata alone: time, action, state and transition time.
   * Resolving an entry to it skips the details instead of building them.
   */
  public static final Schema ENTRY_METADATA =
      select(
          ARCHIVED_META_ENTRY,
          f ->
              List.of(
                      EntryFields.COMMIT_TIME,
                      EntryFields.ACTION_TYPE,
                      EntryFields.ACTION_STATE,
                      EntryFields.STATE_TRANSITION_TIME)
                  .contains(f));

  private ArchiveSchemas() {}

  private static Schema parse(String... names) {
    Schema.Parser parser = new Schema.Parser();
    Schema last = null;
    for (String name : names) {
      String resource = name + ".avsc";
      try (InputStream in = ArchiveSchemas.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("missing schema resource " + resource);
        }
        last = parser.parse(in);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read schema resource " + resource, e);
      }
    }
    return last;
  }

  private static Schema select(Schema entry, Predicate<String> keep) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : entry.getFields()) {
      if (keep.test(field.name())) {
        fields.add(new Schema.Field(field, field.schema()));
      }
    }
    return Schema.createRecord(
        entry.getName(), entry.getDoc(), entry.getNamespace(), entry.isError(), fields);
  }
}
