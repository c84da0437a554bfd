package io.timelinearchive.format;

import org.apache.avro.Schema;

/**
 * The fields of an archive entry that carry an instant's details, each a union of null and one
 * record, with the record schema Hudi 0.15 declares for it.
 */
public enum EntryDetail {
  COMMIT_METADATA("hoodieCommitMetadata", ArchiveSchemas.COMMIT_METADATA),
  CLEAN_METADATA("hoodieCleanMetadata", ArchiveSchemas.CLEAN_METADATA),
  COMPACTION_METADATA("hoodieCompactionMetadata", ArchiveSchemas.COMPACTION_METADATA),
  ROLLBACK_METADATA("hoodieRollbackMetadata", ArchiveSchemas.ROLLBACK_METADATA),
  SAVEPOINT_METADATA("hoodieSavePointMetadata", ArchiveSchemas.SAVEPOINT_METADATA),
  COMPACTION_PLAN("hoodieCompactionPlan", ArchiveSchemas.COMPACTION_PLAN),
  CLEANER_PLAN("hoodieCleanerPlan", ArchiveSchemas.CLEANER_PLAN),
  REPLACE_COMMIT_METADATA("hoodieReplaceCommitMetadata", ArchiveSchemas.REPLACE_COMMIT_METADATA),
  REQUESTED_REPLACE_METADATA(
      "hoodieRequestedReplaceMetadata", ArchiveSchemas.REQUESTED_REPLACE_METADATA),
  INFLIGHT_REPLACE_METADATA("HoodieInflightReplaceMetadata", ArchiveSchemas.COMMIT_METADATA),
  INDEX_COMMIT_METADATA("hoodieIndexCommitMetadata", ArchiveSchemas.INDEX_COMMIT_METADATA);

  private final String fieldName;
  private final Schema defaultSchema;

  EntryDetail(String fieldName, Schema defaultSchema) {
    this.fieldName = fieldName;
    this.defaultSchema = defaultSchema;
  }

  /** The field's name in HoodieArchivedMetaEntry (note Hudi's capitals in two of them). */
  public String fieldName() {
    return fieldName;
  }

  /** The record schema Hudi 0.15 declares for the field. */
  public Schema defaultSchema() {
    return defaultSchema;
  }
}
