// Drives lakesql serve through MariaDB Connector/J (the JDBC driver Metabase
// uses for MySQL) or MySQL Connector/J, and prints the transcript that
// integration/clients_test.go compares. A single-file program, so no build
// tool is needed:
//
//   java -cp /usr/share/java/mariadb-java-client.jar Client.java HOST PORT mariadb
//   java -cp mysql-connector-j.jar Client.java HOST PORT mysql
//
// A value is printed in the transcript's canonical form if the driver's
// getObject returned the Java type JDBC maps the MySQL column type to
// (BigDecimal, Date, Timestamp, Long, String); otherwise as <Type value>, so
// the comparison shows it (MySQL Connector/J maps DATETIME to LocalDateTime,
// MariaDB's to Timestamp). DatabaseMetaData answers are printed as well:
// they are what BI tools build their schema browser from.

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class Client {
    static final String DDL = """
        CREATE TABLE orders (
          region VARCHAR(8) NOT NULL,
          id BIGINT NOT NULL,
          amount DECIMAL(12,2),
          placed DATE,
          updated DATETIME(6),
          note VARCHAR(32),
          PRIMARY KEY (region, id)
        ) PARTITION BY LIST COLUMNS (region)""";

    static final String COLUMNS = "region, id, amount, placed, updated, note";

    static final Object[][] FIRST_ROWS = {
        {"eu", 1L, new BigDecimal("10.50"), Date.valueOf("2026-04-16"), Timestamp.valueOf("2026-04-16 10:11:12.345"), "first"},
        {"us", 2L, new BigDecimal("1234567.89"), Date.valueOf("2026-04-17"), Timestamp.valueOf("2026-04-17 00:00:00"), null},
        {"eu", 3L, null, null, null, "x"},
    };
    static final Object[][] SECOND_ROWS = {
        {"eu", 1L, new BigDecimal("11.00"), Date.valueOf("2026-04-16"), Timestamp.valueOf("2026-04-18 08:00:00"), "corrected"},
        {"us", 4L, new BigDecimal("-0.05"), Date.valueOf("2026-12-31"), Timestamp.valueOf("2026-12-31 23:59:59.999"), "second"},
    };

    static final String[][] BAD_SQL = {
        {"syntax error", "SELEC * FROM orders"},
        {"unknown table", "SELECT * FROM no_such_table"},
    };

    static Class<?>[] orderTypes(String driver) {
        Class<?> datetime = driver.equals("mysql") ? LocalDateTime.class : Timestamp.class;
        return new Class<?>[] {String.class, Long.class, BigDecimal.class, Date.class, datetime, String.class};
    }

    static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    public static void main(String[] args) throws SQLException {
        String driver = args[2];
        String url = "jdbc:" + driver + "://" + args[0] + ":" + args[1] + "/?user=root&password="
            + (driver.equals("mysql") ? "&sslMode=DISABLED" : "");
        Class<?>[] types = orderTypes(driver);
        try (Connection conn = DriverManager.getConnection(url)) {
            try (Statement setup = conn.createStatement()) {
                setup.execute("CREATE DATABASE shop");
            }
            conn.setCatalog("shop");
            // Created after setCatalog: MySQL Connector/J switches back to
            // the database a statement was created in before running it.
            run(conn, conn.createStatement(), types);
        }
    }

    static void run(Connection conn, Statement st, Class<?>[] types) throws SQLException {
        try (st) {
            st.execute(DDL);
            insert(conn, FIRST_ROWS);
            emit("first", st.executeQuery("SELECT " + COLUMNS + " FROM orders ORDER BY id"), types);
            insert(conn, SECOND_ROWS);
            emit("latest", st.executeQuery("SELECT " + COLUMNS + " FROM orders ORDER BY id"), types);
            emit("as of 1", st.executeQuery("SELECT " + COLUMNS + " FROM orders FOR VERSION AS OF 1 ORDER BY id"), types);
            try (PreparedStatement ps = conn.prepareStatement("SELECT id, amount FROM orders WHERE region = ? AND amount > ? ORDER BY id")) {
                ps.setString(1, "eu");
                ps.setBigDecimal(2, BigDecimal.ZERO);
                emit("filtered", ps.executeQuery(), new Class<?>[] {Long.class, BigDecimal.class});
            }
            long connectionId = single(st.executeQuery("SELECT CONNECTION_ID()"));
            for (String[] bad : BAD_SQL) {
                try {
                    // execute, not executeQuery: MySQL Connector/J refuses a
                    // text that does not start like a query itself.
                    st.execute(bad[1]);
                    System.out.println(bad[0] + "\tno error");
                } catch (SQLException e) {
                    System.out.println(bad[0] + "\t" + e.getErrorCode());
                }
            }
            emit("totals", st.executeQuery("SELECT COUNT(*), SUM(amount) FROM orders"), new Class<?>[] {Long.class, BigDecimal.class});
            System.out.println("same connection\t" + (single(st.executeQuery("SELECT CONNECTION_ID()")) == connectionId));
            metadata(conn.getMetaData());
        }
    }

    // insert sends the rows as one multi-row INSERT with bound parameters.
    static void insert(Connection conn, Object[][] rows) throws SQLException {
        String tuple = "(?, ?, ?, ?, ?, ?)";
        String sql = "INSERT INTO orders (" + COLUMNS + ") VALUES " + String.join(", ", Collections.nCopies(rows.length, tuple));
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            int i = 1;
            for (Object[] row : rows) {
                for (Object v : row) {
                    ps.setObject(i++, v);
                }
            }
            ps.executeUpdate();
        }
    }

    static long single(ResultSet rs) throws SQLException {
        try (rs) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static void emit(String label, ResultSet rs, Class<?>[] types) throws SQLException {
        try (rs) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> cells = new ArrayList<>();
                cells.add(label);
                for (int i = 1; i <= n; i++) {
                    cells.add(canonical(rs.getObject(i), types[i - 1]));
                }
                System.out.println(String.join("\t", cells));
            }
        }
    }

    static String canonical(Object v, Class<?> want) {
        if (v == null) {
            return "NULL";
        }
        if (v.getClass() != want) {
            return "<" + v.getClass().getSimpleName() + " " + v + ">";
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof Timestamp t) {
            return t.toLocalDateTime().format(MICROS);
        }
        if (v instanceof LocalDateTime t) {
            return t.format(MICROS);
        }
        return v.toString();
    }

    // metadata prints what DatabaseMetaData reports for the table: the
    // queries behind these calls (information_schema TABLES, COLUMNS, and
    // the COLUMNS x STATISTICS join on INDEX_NAME='PRIMARY') are the ones
    // BI tools' schema sync sends.
    static void metadata(DatabaseMetaData md) throws SQLException {
        try (ResultSet rs = md.getTables("shop", null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                System.out.println("table\t" + rs.getString("TABLE_CAT") + "\t" + rs.getString("TABLE_NAME") + "\t" + rs.getString("TABLE_TYPE"));
            }
        }
        try (ResultSet rs = md.getColumns("shop", null, "orders", "%")) {
            while (rs.next()) {
                System.out.println(String.join("\t", "column", rs.getString("COLUMN_NAME"), rs.getString("TYPE_NAME"),
                    "size=" + rs.getInt("COLUMN_SIZE"), "digits=" + rs.getString("DECIMAL_DIGITS"),
                    "nullable=" + rs.getString("IS_NULLABLE"), "position=" + rs.getInt("ORDINAL_POSITION")));
            }
        }
        try (ResultSet rs = md.getPrimaryKeys("shop", null, "orders")) {
            while (rs.next()) {
                System.out.println(String.join("\t", "primary key", rs.getString("COLUMN_NAME"), "seq=" + rs.getInt("KEY_SEQ"), rs.getString("PK_NAME")));
            }
        }
        try (ResultSet rs = md.getIndexInfo("shop", null, "orders", false, false)) {
            while (rs.next()) {
                System.out.println(String.join("\t", "index", rs.getString("INDEX_NAME"), rs.getString("COLUMN_NAME"),
                    "seq=" + rs.getInt("ORDINAL_POSITION"), "non_unique=" + rs.getBoolean("NON_UNIQUE")));
            }
        }
        try (ResultSet rs = md.getImportedKeys("shop", null, "orders")) {
            int n = 0;
            while (rs.next()) {
                n++;
            }
            System.out.println("imported keys\t" + n);
        }
    }
}
