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

import org.springframework.asm.Type;

/**
 * Renders the generic signatures and the descriptors of class files as Java source types:
 * {@code <T:Ljava/lang/Object;>(TT;)Ljava/util/List<TT;>;} becomes {@code <T>},
 * {@code (T)} and {@code java.util.List<T>}.
 *
 * @author The distlock maintainers
 */
final class SignatureRenderer {

	private final String signature;

	private int position;

	private SignatureRenderer(String signature) {
		this.signature = signature;
	}

	/**
	 * A class signature: its type parameters, superclass and interfaces.
	 * @param signature the class signature
	 * @return the type parameters (empty when there are none), then the superclass, then
	 * each interface
	 */
	static List<String> classSignature(String signature) {
		SignatureRenderer renderer = new SignatureRenderer(signature);
		List<String> parts = new ArrayList<>();
		parts.add(renderer.typeParameters());
		while (renderer.position < signature.length()) {
			parts.add(renderer.type());
		}
		return parts;
	}

	/**
	 * A method signature.
	 * @param signature the method signature
	 * @return the type parameters (empty when there are none), the return type, then each
	 * parameter type, then each thrown type, the thrown types after a {@code "^"} element
	 */
	static List<String> methodSignature(String signature) {
		SignatureRenderer renderer = new SignatureRenderer(signature);
		String typeParameters = renderer.typeParameters();
		List<String> parameters = new ArrayList<>();
		renderer.expect('(');
		while (renderer.peek() != ')') {
			parameters.add(renderer.type());
		}
		renderer.expect(')');
		List<String> parts = new ArrayList<>();
		parts.add(typeParameters);
		parts.add(renderer.type());
		parts.addAll(parameters);
		while (renderer.position < signature.length()) {
			renderer.expect('^');
			parts.add("^");
			parts.add(renderer.type());
		}
		return parts;
	}

	/**
	 * A field or record component type signature.
	 * @param signature the type signature
	 * @return the type
	 */
	static String typeSignature(String signature) {
		return new SignatureRenderer(signature).type();
	}

	/**
	 * A field or parameter descriptor, without generics.
	 * @param descriptor the descriptor
	 * @return the type
	 */
	static String descriptor(String descriptor) {
		return Type.getType(descriptor).getClassName();
	}

	private String typeParameters() {
		if (peek() != '<') {
			return "";
		}
		expect('<');
		List<String> parameters = new ArrayList<>();
		while (peek() != '>') {
			String name = until(':');
			List<String> bounds = new ArrayList<>();
			// The class bound, empty before an interface bound:
			// "T::Ljava/lang/Comparable;".
			if (peek() != ':') {
				bounds.add(type());
			}
			while (peek() == ':') {
				expect(':');
				bounds.add(type());
			}
			bounds.remove("java.lang.Object");
			parameters.add(bounds.isEmpty() ? name : name + " extends " + String.join(" & ", bounds));
		}
		expect('>');
		return "<" + String.join(", ", parameters) + ">";
	}

	private String type() {
		char next = this.signature.charAt(this.position++);
		switch (next) {
			case 'L':
				return classType();
			case 'T':
				return until(';');
			case '[':
				return type() + "[]";
			default:
				return Type.getType(String.valueOf(next)).getClassName();
		}
	}

	private String classType() {
		StringBuilder type = new StringBuilder();
		while (true) {
			char next = this.signature.charAt(this.position++);
			if (next == ';') {
				return type.toString();
			}
			if (next == '<') {
				type.append('<').append(typeArguments()).append('>');
			}
			else {
				type.append((next == '/') ? '.' : next);
			}
		}
	}

	private String typeArguments() {
		List<String> arguments = new ArrayList<>();
		while (peek() != '>') {
			char next = peek();
			if (next == '*') {
				this.position++;
				arguments.add("?");
			}
			else if (next == '+' || next == '-') {
				this.position++;
				arguments.add(((next == '+') ? "? extends " : "? super ") + type());
			}
			else {
				arguments.add(type());
			}
		}
		expect('>');
		return String.join(", ", arguments);
	}

	private String until(char end) {
		int index = this.signature.indexOf(end, this.position);
		String result = this.signature.substring(this.position, index);
		this.position = index + 1;
		return result;
	}

	private char peek() {
		return this.signature.charAt(this.position);
	}

	private void expect(char expected) {
		char actual = this.signature.charAt(this.position++);
		if (actual != expected) {
			throw new IllegalArgumentException(
					"Expected '" + expected + "' at " + (this.position - 1) + " in signature '" + this.signature + "'");
		}
	}

}
