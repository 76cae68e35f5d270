package org.lakesql.interop;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the write spec: column types in the JSON shape of Paimon's schema files
 * (an atomic type string such as "DECIMAL(38, 10) NOT NULL", or {"type": "ARRAY",
 * "element": …}, {"type": "MAP", "key": …, "value": …}, {"type": "ROW", "fields":
 * [{"name": …, "type": …}]}) and values in the interop row encoding RowJson writes.
 */
final class SpecJson {
    /** "yyyy-MM-dd HH:mm:ss" with 0 to 9 fraction digits. */
    private static final DateTimeFormatter TS = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    private SpecJson() {}

    static DataType type(JsonNode n) {
        if (n.isTextual()) {
            return DataTypeJsonParser.parseAtomicTypeSQLString(n.asText());
        }
        String head = n.get("type").asText().trim();
        boolean notNull = head.endsWith("NOT NULL");
        String root = notNull ? head.substring(0, head.length() - "NOT NULL".length()).trim() : head;
        DataType t;
        switch (root) {
            case "ARRAY":
                t = DataTypes.ARRAY(type(n.get("element")));
                break;
            case "MAP":
                t = DataTypes.MAP(type(n.get("key")), type(n.get("value")));
                break;
            case "ROW": {
                List<DataField> fields = new ArrayList<>();
                int id = 0;
                for (JsonNode f : n.get("fields")) {
                    fields.add(new DataField(f.has("id") ? f.get("id").asInt() : id, f.get("name").asText(), type(f.get("type"))));
                    id++;
                }
                t = DataTypes.ROW(fields.toArray(new DataField[0]));
                break;
            }
            default:
                throw new IllegalArgumentException("unknown nested type " + head);
        }
        return t.copy(!notNull);
    }

    static GenericRow row(JsonNode values, RowType type, RowKind kind) {
        GenericRow row = new GenericRow(kind, type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            DataField f = type.getFields().get(i);
            row.setField(i, value(values.get(f.name()), f.type()));
        }
        return row;
    }

    static Object value(JsonNode v, DataType t) {
        if (v == null || v.isNull()) {
            return null;
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return v.asBoolean();
            case TINYINT:
                return (byte) v.asInt();
            case SMALLINT:
                return (short) v.asInt();
            case INTEGER:
                return v.asInt();
            case BIGINT:
                return v.asLong();
            case FLOAT:
                return v.isTextual() ? Float.parseFloat(v.asText()) : (float) v.asDouble();
            case DOUBLE:
                return v.isTextual() ? Double.parseDouble(v.asText()) : v.asDouble();
            case DECIMAL: {
                DecimalType d = (DecimalType) t;
                return Decimal.fromBigDecimal(new BigDecimal(v.asText()), d.getPrecision(), d.getScale());
            }
            case CHAR:
            case VARCHAR:
                return BinaryString.fromString(v.asText());
            case BINARY:
            case VARBINARY:
                return Base64.getDecoder().decode(v.asText());
            case DATE:
                return (int) LocalDate.parse(v.asText()).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE:
                return (int) (LocalTime.parse(v.asText()).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromLocalDateTime(LocalDateTime.parse(v.asText().replace('T', ' '), TS));
            case ARRAY: {
                DataType elem = ((ArrayType) t).getElementType();
                Object[] out = new Object[v.size()];
                for (int i = 0; i < v.size(); i++) {
                    out[i] = value(v.get(i), elem);
                }
                return new GenericArray(out);
            }
            case MAP: {
                MapType m = (MapType) t;
                Map<Object, Object> out = new LinkedHashMap<>();
                for (JsonNode e : v) {
                    out.put(value(e.get("key"), m.getKeyType()), value(e.get("value"), m.getValueType()));
                }
                return new GenericMap(out);
            }
            case ROW:
                return row(v, (RowType) t, RowKind.INSERT);
            default:
                throw new IllegalArgumentException("no interop encoding for type " + t);
        }
    }
}
