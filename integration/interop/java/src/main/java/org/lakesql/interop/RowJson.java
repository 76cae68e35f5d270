package org.lakesql.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.paimon.data.DataGetters;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Base64;

/**
 * The interop JSON encoding of Paimon values (see ../README.md, "Row encoding"):
 * one JSON value per Paimon value, the same for every reader.
 *
 * <pre>
 * BOOLEAN                    true / false
 * TINYINT … BIGINT           number
 * FLOAT, DOUBLE              number (a decimal that parses back to the same float), or
 *                            "NaN", "Infinity", "-Infinity"
 * DECIMAL(p,s)               string, exactly s fraction digits: "12.30"
 * CHAR, VARCHAR, STRING      string, as stored (no padding added or removed)
 * BINARY, VARBINARY, BYTES   standard base64 string
 * DATE                       "YYYY-MM-DD"
 * TIME(p)                    "HH:MM:SS.mmm" (Paimon keeps milliseconds of the day)
 * TIMESTAMP(p)               "YYYY-MM-DD HH:MM:SS" plus exactly p fraction digits
 * TIMESTAMP_LTZ(p)           the same, as the UTC wall clock
 * ARRAY                      array
 * MAP                        array of {"key": …, "value": …}, in the stored order
 * MULTISET                   array of {"key": …, "value": count}
 * ROW                        object keyed by field name
 * NULL                       null
 * </pre>
 */
final class RowJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private RowJson() {}

    static ObjectNode row(InternalRow row, RowType type) {
        ObjectNode out = F.objectNode();
        for (int i = 0; i < type.getFieldCount(); i++) {
            DataField f = type.getFields().get(i);
            out.set(f.name(), field(row, i, f.type()));
        }
        return out;
    }

    private static JsonNode field(DataGetters row, int pos, DataType t) {
        if (row.isNullAt(pos)) {
            return F.nullNode();
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return F.booleanNode(row.getBoolean(pos));
            case TINYINT:
                return F.numberNode(row.getByte(pos));
            case SMALLINT:
                return F.numberNode(row.getShort(pos));
            case INTEGER:
                return F.numberNode(row.getInt(pos));
            case BIGINT:
                return F.numberNode(row.getLong(pos));
            case FLOAT:
                return floatNode(row.getFloat(pos));
            case DOUBLE:
                return doubleNode(row.getDouble(pos));
            case DECIMAL: {
                DecimalType d = (DecimalType) t;
                return F.textNode(row.getDecimal(pos, d.getPrecision(), d.getScale()).toBigDecimal().toPlainString());
            }
            case CHAR:
            case VARCHAR:
                return F.textNode(row.getString(pos).toString());
            case BINARY:
            case VARBINARY:
                return F.textNode(Base64.getEncoder().encodeToString(row.getBinary(pos)));
            case DATE:
                return F.textNode(date(row.getInt(pos)));
            case TIME_WITHOUT_TIME_ZONE:
                return F.textNode(time(row.getInt(pos)));
            case TIMESTAMP_WITHOUT_TIME_ZONE: {
                int p = ((TimestampType) t).getPrecision();
                return F.textNode(timestamp(row.getTimestamp(pos, p), p));
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int p = ((LocalZonedTimestampType) t).getPrecision();
                return F.textNode(timestamp(row.getTimestamp(pos, p), p));
            }
            case ARRAY:
                return array(row.getArray(pos), ((ArrayType) t).getElementType());
            case MAP: {
                MapType m = (MapType) t;
                return map(row.getMap(pos), m.getKeyType(), m.getValueType());
            }
            case MULTISET:
                return map(row.getMap(pos), ((MultisetType) t).getElementType(), new org.apache.paimon.types.IntType());
            case ROW: {
                RowType r = (RowType) t;
                return row(row.getRow(pos, r.getFieldCount()), r);
            }
            default:
                throw new IllegalArgumentException("no interop encoding for type " + t);
        }
    }

    private static JsonNode element(InternalArray a, int pos, DataType t) {
        return field(a, pos, t);
    }

    private static ArrayNode array(InternalArray a, DataType elem) {
        ArrayNode out = F.arrayNode();
        for (int i = 0; i < a.size(); i++) {
            out.add(element(a, i, elem));
        }
        return out;
    }

    private static ArrayNode map(InternalMap m, DataType key, DataType value) {
        ArrayNode out = F.arrayNode();
        InternalArray keys = m.keyArray();
        InternalArray values = m.valueArray();
        for (int i = 0; i < m.size(); i++) {
            ObjectNode e = F.objectNode();
            e.set("key", element(keys, i, key));
            e.set("value", element(values, i, value));
            out.add(e);
        }
        return out;
    }

    static JsonNode floatNode(float f) {
        if (Float.isNaN(f) || Float.isInfinite(f)) {
            return F.textNode(Float.toString(f));
        }
        return F.numberNode(f);
    }

    static JsonNode doubleNode(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return F.textNode(Double.toString(d));
        }
        return F.numberNode(d);
    }

    static String date(int epochDay) {
        return LocalDate.ofEpochDay(epochDay).toString();
    }

    static String time(int millisOfDay) {
        LocalTime t = LocalTime.ofNanoOfDay(millisOfDay * 1_000_000L);
        return String.format("%02d:%02d:%02d.%03d", t.getHour(), t.getMinute(), t.getSecond(), millisOfDay % 1000);
    }

    static String timestamp(Timestamp ts, int precision) {
        LocalDateTime t = ts.toLocalDateTime();
        StringBuilder b = new StringBuilder(String.format("%04d-%02d-%02d %02d:%02d:%02d",
                t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond()));
        if (precision > 0) {
            String nanos = String.format("%09d", t.getNano());
            b.append('.').append(nanos, 0, precision);
        }
        return b.toString();
    }
}
