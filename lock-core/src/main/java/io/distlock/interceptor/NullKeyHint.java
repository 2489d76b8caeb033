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

package io.distlock.interceptor;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ParameterNameDiscoverer;

/**
 * Says why a lock key evaluated to {@code null} and what to do about it: which argument
 * was {@code null}, how to give a default with SpEL's Elvis operator, and, when the key
 * refers to parameters by name but their names are not in the class file, how to compile
 * them in. Only called for a call that fails.
 */
final class NullKeyHint {

	private static final Pattern NAMED_VARIABLE = Pattern.compile("#([A-Za-z_$][A-Za-z0-9_$]*)");

	private static final Pattern POSITION = Pattern.compile("[ap]\\d+");

	// A variable and its properties, to which the Elvis operator applies without
	// parentheses.
	private static final Pattern PATH = Pattern.compile("#[A-Za-z_$][A-Za-z0-9_$]*(\\??\\.[A-Za-z_$][A-Za-z0-9_$]*)*");

	private final ParameterNameDiscoverer parameterNames;

	NullKeyHint(ParameterNameDiscoverer parameterNames) {
		this.parameterNames = parameterNames;
	}

	/**
	 * Return the problem of a key that evaluated to {@code null}, for
	 * {@link LockKeyEvaluator#invalidKey}.
	 * @param operation the operation of the called method
	 * @param key the key expression that gave {@code null}
	 * @param args the arguments of the call
	 * @return the problem, with what to do
	 */
	String problem(LockOperation operation, KeyExpression key, @Nullable Object[] args) {
		String @Nullable [] names = this.parameterNames.getParameterNames(operation.method());
		String byName = (names == null) ? variableByName(key.source()) : null;
		if (byName != null) {
			return "evaluated to null: the parameter names of this method are not in its class file, so #" + byName
					+ " is always null. " + KeyExpressionParser.PARAMETER_NAMES_REMEDY;
		}
		return "evaluated to null: " + nullArguments(key, args, names) + ". Pass a non-null argument or, if such "
				+ "calls may share one lock, give a default with the Elvis operator, for example "
				+ withDefault(key.source());
	}

	/**
	 * Return the problem of a collection or array key value holding {@code null}.
	 * @param key the key expression whose value held {@code null}
	 * @return the problem, with what to do
	 */
	static String elementProblem(KeyExpression key) {
		return "evaluated to null for an element of its collection or array; leave nulls out, for example with a "
				+ "selection: " + operand(key.source()) + ".?[#this != null]";
	}

	private static String nullArguments(KeyExpression key, @Nullable Object[] args, String @Nullable [] names) {
		if (key instanceof KeyExpression.Argument argument) {
			return "argument " + describe(argument.index(), names) + " was null";
		}
		List<String> nulls = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			if (args[i] == null) {
				nulls.add(describe(i, names));
			}
		}
		if (nulls.isEmpty()) {
			return "no argument was null, a property or method it reads gave null";
		}
		return ((nulls.size() == 1) ? "argument " : "arguments ") + String.join(", ", nulls)
				+ ((nulls.size() == 1) ? " was null" : " were null");
	}

	private static String describe(int index, String @Nullable [] names) {
		return (names != null && index < names.length) ? "#" + names[index] + " (#p" + index + ")" : "#p" + index;
	}

	private static String withDefault(String source) {
		return "\"" + operand(source) + " ?: 'none'\"";
	}

	private static String operand(String source) {
		String expression = source.strip();
		return PATH.matcher(expression).matches() ? expression : "(" + expression + ")";
	}

	private static @Nullable String variableByName(String source) {
		Matcher matcher = NAMED_VARIABLE.matcher(source);
		while (matcher.find()) {
			String variable = matcher.group(1);
			if (!variable.equals("root") && !variable.equals("this") && !POSITION.matcher(variable).matches()) {
				return variable;
			}
		}
		return null;
	}

}
