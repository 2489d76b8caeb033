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

package io.distlock.build.api;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.asm.AnnotationVisitor;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;

/**
 * Renders an annotation, or an annotation element's default value, as Java source:
 * {@code @java.lang.annotation.Target({java.lang.annotation.ElementType.METHOD})}. Values
 * are rendered the same on every JDK (floating-point ones in hexadecimal).
 *
 * @author The distlock maintainers
 */
final class AnnotationRenderer extends AnnotationVisitor {

	private final @Nullable String name;

	private final boolean array;

	private final List<String> values = new ArrayList<>();

	private final Consumer<String> result;

	private AnnotationRenderer(@Nullable String name, boolean array, Consumer<String> result) {
		super(SpringAsmInfo.ASM_VERSION);
		this.name = name;
		this.array = array;
		this.result = result;
	}

	/**
	 * A renderer for an annotation.
	 * @param descriptor the annotation's type descriptor
	 * @param result receives the rendered annotation
	 * @return the renderer
	 */
	static AnnotationVisitor annotation(String descriptor, Consumer<String> result) {
		return new AnnotationRenderer(SignatureRenderer.descriptor(descriptor), false, result);
	}

	/**
	 * A renderer for an annotation element's default value.
	 * @param result receives the rendered value
	 * @return the renderer
	 */
	static AnnotationVisitor defaultValue(Consumer<String> result) {
		return new AnnotationRenderer(null, false, result);
	}

	/**
	 * Renders a constant: a field's constant value or an annotation value.
	 * @param value the value
	 * @param descriptor the type descriptor of the field, which tells an {@code int} from
	 * a {@code boolean} or a {@code char} ({@code null} for an annotation value)
	 * @return the value as Java source
	 */
	static String constant(Object value, @Nullable String descriptor) {
		if (value instanceof String string) {
			return quote(string, '"');
		}
		if (value instanceof Character character) {
			return quote(String.valueOf(character), '\'');
		}
		if (value instanceof Type type) {
			return type.getClassName() + ".class";
		}
		if (value instanceof Float number) {
			return Float.toHexString(number) + "f";
		}
		if (value instanceof Double number) {
			return Double.toHexString(number);
		}
		if (value instanceof Long number) {
			return number + "L";
		}
		if (value instanceof Integer number && "Z".equals(descriptor)) {
			return String.valueOf(number != 0);
		}
		if (value instanceof Integer number && "C".equals(descriptor)) {
			return quote(String.valueOf((char) number.intValue()), '\'');
		}
		if (value.getClass().isArray()) {
			List<String> elements = new ArrayList<>();
			int length = java.lang.reflect.Array.getLength(value);
			for (int i = 0; i < length; i++) {
				elements.add(constant(java.lang.reflect.Array.get(value, i), null));
			}
			return "{" + String.join(", ", elements) + "}";
		}
		return String.valueOf(value);
	}

	private static String quote(String value, char quote) {
		StringBuilder quoted = new StringBuilder().append(quote);
		for (char character : value.toCharArray()) {
			if (character == quote || character == '\\') {
				quoted.append('\\').append(character);
			}
			else if (character < 0x20 || character > 0x7e) {
				quoted.append(String.format("\\u%04x", (int) character));
			}
			else {
				quoted.append(character);
			}
		}
		return quoted.append(quote).toString();
	}

	@Override
	public void visit(String name, Object value) {
		add(name, constant(value, null));
	}

	@Override
	public void visitEnum(String name, String descriptor, String value) {
		add(name, SignatureRenderer.descriptor(descriptor) + "." + value);
	}

	@Override
	public AnnotationVisitor visitAnnotation(String name, String descriptor) {
		return annotation(descriptor, (annotation) -> add(name, annotation));
	}

	@Override
	public AnnotationVisitor visitArray(String name) {
		return new AnnotationRenderer(null, true, (array) -> add(name, array));
	}

	private void add(@Nullable String name, String value) {
		this.values.add((name != null && !this.array) ? name + "=" + value : value);
	}

	@Override
	public void visitEnd() {
		if (this.array) {
			this.result.accept("{" + String.join(", ", this.values) + "}");
		}
		else if (this.name == null) {
			this.result.accept(this.values.isEmpty() ? "" : this.values.get(0));
		}
		else {
			this.result
				.accept("@" + this.name + (this.values.isEmpty() ? "" : "(" + String.join(", ", this.values) + ")"));
		}
	}

}
