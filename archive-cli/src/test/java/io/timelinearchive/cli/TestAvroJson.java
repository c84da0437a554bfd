package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class TestAvroJson {
  private static final Schema INNER =
      SchemaBuilder.record("Inner").fields().requiredLong("n").endRecord();
  private static final Schema SCHEMA =
      SchemaBuilder.record("Entry")
          .fields()
          .optionalString("name")
          .name("ratio")
          .type()
          .doubleType()
          .noDefault()
          .name("kind")
          .type()
          .enumeration("Kind")
          .symbols("A", "B")
          .noDefault()
          .name("stats")
          .type()
          .map()
          .values()
          .array()
          .items(INNER)
          .noDefault()
          .name("raw")
          .type()
          .bytesType()
          .noDefault()
          .name("secret")
          .type()
          .stringType()
          .noDefault()
          .endRecord();

  @Test
  void recordsBecomeObjectsInSchemaOrderWithTypedValues() {
    GenericRecord inner = new GenericData.Record(INNER);
    inner.put("n", 7L);
    GenericRecord entry = new GenericData.Record(SCHEMA);
    entry.put("name", new Utf8("x"));
    entry.put("ratio", Double.NaN);
    entry.put("kind", new GenericData.EnumSymbol(SCHEMA.getField("kind").schema(), "B"));
    entry.put("stats", Map.of(new Utf8("p1"), List.of(inner)));
    entry.put("raw", ByteBuffer.wrap(new byte[] {1, 2, 3}));
    entry.put("secret", "left out");

    ObjectNode json = AvroJson.record(entry, Set.of("secret"));

    assertThat(json.fieldNames())
        .toIterable()
        .containsExactly("name", "ratio", "kind", "stats", "raw");
    assertThat(json.get("name").asText()).isEqualTo("x");
    // JSON has no NaN: it becomes text rather than invalid output
    assertThat(json.get("ratio").asText()).isEqualTo("NaN");
    assertThat(json.get("kind").asText()).isEqualTo("B");
    JsonNode n = json.get("stats").get("p1").get(0).get("n");
    assertThat(n.isIntegralNumber()).isTrue();
    assertThat(n.asLong()).isEqualTo(7L);
    assertThat(json.get("raw").asText()).isEqualTo("AQID");
    assertThat(Output.compactJson(json))
        .isEqualTo(
            "{\"name\":\"x\",\"ratio\":\"NaN\",\"kind\":\"B\",\"stats\":{\"p1\":[{\"n\":7}]},"
                + "\"raw\":\"AQID\"}");
  }

  @Test
  void nullsStayNull() {
    assertThat(AvroJson.value(null).isNull()).isTrue();
    assertThat(AvroJson.value(2.5).asDouble()).isEqualTo(2.5);
    assertThat(AvroJson.value(true).asBoolean()).isTrue();
  }
}
