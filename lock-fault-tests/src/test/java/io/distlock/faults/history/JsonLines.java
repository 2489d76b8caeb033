/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.faults.history;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Flat JSON objects, one per line, as the client JVMs write their history: string, number
 * and boolean values only, no nesting.
 */
public final class JsonLines {

	private JsonLines() {
	}

	/**
	 * Format the fields as one JSON object on one line.
	 * @param fields the fields in order; values are strings, numbers or booleans
	 * @return the line, without a line terminator
	 */
	public static String format(Map<String, ?> fields) {
		StringBuilder line = new StringBuilder("{");
		fields.forEach((name, value) -> {
			if (line.length() > 1) {
				line.append(',');
			}
			quote(line, name);
			line.append(':');
			if (value instanceof Number || value instanceof Boolean) {
				line.append(value);
			}
			else {
				quote(line, String.valueOf(value));
			}
		});
		return line.append('}').toString();
	}

	/**
	 * Parse one line written by {@link #format(Map)}.
	 * @param line the line
	 * @return the fields, in order, each value as its text (strings unescaped)
	 * @throws IllegalArgumentException if the line is not a complete flat object, such as
	 * the last line of a process killed while writing it
	 */
	public static Map<String, String> parse(String line) {
		Parser parser = new Parser(line.strip());
		return parser.object();
	}

	private static void quote(StringBuilder out, String text) {
		out.append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				default -> {
					if (c < 0x20) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		out.append('"');
	}

	private static final class Parser {

		private final String text;

		private int position;

		Parser(String text) {
			this.text = text;
		}

		Map<String, String> object() {
			Map<String, String> fields = new LinkedHashMap<>();
			expect('{');
			if (peek() == '}') {
				this.position++;
				return end(fields);
			}
			while (true) {
				String name = string();
				expect(':');
				fields.put(name, (peek() == '"') ? string() : bare());
				char next = next();
				if (next == '}') {
					return end(fields);
				}
				if (next != ',') {
					throw invalid("',' or '}'");
				}
			}
		}

		private Map<String, String> end(Map<String, String> fields) {
			if (this.position != this.text.length()) {
				throw invalid("the end of the line");
			}
			return fields;
		}

		private String string() {
			expect('"');
			StringBuilder value = new StringBuilder();
			while (true) {
				char c = next();
				if (c == '"') {
					return value.toString();
				}
				if (c != '\\') {
					value.append(c);
					continue;
				}
				char escaped = next();
				switch (escaped) {
					case 'n' -> value.append('\n');
					case 'r' -> value.append('\r');
					case 't' -> value.append('\t');
					case 'u' -> {
						if (this.position + 4 > this.text.length()) {
							throw invalid("four hex digits");
						}
						value
							.append((char) Integer.parseInt(this.text.substring(this.position, this.position + 4), 16));
						this.position += 4;
					}
					default -> value.append(escaped);
				}
			}
		}

		private String bare() {
			int start = this.position;
			while (this.position < this.text.length() && ",}".indexOf(this.text.charAt(this.position)) < 0) {
				this.position++;
			}
			String value = this.text.substring(start, this.position).strip();
			if (value.isEmpty()) {
				throw invalid("a value");
			}
			return value;
		}

		private void expect(char c) {
			if (next() != c) {
				throw invalid("'" + c + "'");
			}
		}

		private char peek() {
			if (this.position >= this.text.length()) {
				throw invalid("more");
			}
			return this.text.charAt(this.position);
		}

		private char next() {
			char c = peek();
			this.position++;
			return c;
		}

		private IllegalArgumentException invalid(String expected) {
			return new IllegalArgumentException(
					"Expected " + expected + " at column " + this.position + " of: " + this.text);
		}

	}

}
