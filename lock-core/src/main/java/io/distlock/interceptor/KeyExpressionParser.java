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

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.KotlinDetector;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;

/**
 * Parses the {@code key} attribute once per method, and checks what can be checked before
 * the first call: the syntax, that every {@code #name} is a parameter of the method (and
 * that parameter names are in the class file at all), that {@code #p0}-style positions
 * exist, and that referenced beans are defined.
 */
final class KeyExpressionParser {

	/**
	 * What to do when a key refers to a parameter by name and the names are not in the
	 * class file: said at startup, and by {@link NullKeyHint} for a call.
	 */
	static final String PARAMETER_NAMES_REMEDY = "Compile with the '-parameters' flag (Maven: "
			+ "<parameters>true</parameters> in maven-compiler-plugin; Gradle: options.compilerArgs << "
			+ "'-parameters'), or refer to the argument by position: #p0, #p1, ...";

	// Characters without which a key cannot be SpEL that reads anything from the call.
	private static final Pattern SPEL_MARKERS = Pattern.compile("[#@'\"(+?\\[]");

	private static final Pattern ARGUMENT = Pattern.compile("#([A-Za-z_$][A-Za-z0-9_$]*)");

	private static final Pattern POSITION = Pattern.compile("[ap](\\d+)");

	private final SpelExpressionParser parser = new SpelExpressionParser(
			new SpelParserConfiguration(SpelCompilerMode.MIXED, ClassUtils.getDefaultClassLoader()));

	private final ParameterNameDiscoverer parameterNames;

	private final @Nullable BeanFactory beanFactory;

	KeyExpressionParser(ParameterNameDiscoverer parameterNames, @Nullable BeanFactory beanFactory) {
		this.parameterNames = parameterNames;
		this.beanFactory = beanFactory;
	}

	KeyExpressionParser(@Nullable BeanFactory beanFactory) {
		this(new DefaultParameterNameDiscoverer(), beanFactory);
	}

	ParameterNameDiscoverer parameterNames() {
		return this.parameterNames;
	}

	KeyExpression parse(String key, String name, Method method) {
		return parse(key, name, method, "key");
	}

	/**
	 * Parse one key expression of the given attribute: {@code key}, or an element of
	 * {@code keys}, named so in messages.
	 */
	KeyExpression parse(String key, String name, Method method, String attribute) {
		if (key.isEmpty()) {
			String value = name.isEmpty() ? method.getDeclaringClass().getName() + "." + method.getName() : name;
			return new KeyExpression.Literal(value, key);
		}
		if (key.isBlank()) {
			throw LockOperationParser.invalid(method, attribute, attribute + " '" + key + "' is blank");
		}
		if (!SPEL_MARKERS.matcher(key).find()) {
			return new KeyExpression.Literal(key, key);
		}
		String @Nullable [] names = this.parameterNames.getParameterNames(method);
		Matcher argument = ARGUMENT.matcher(key.strip());
		if (argument.matches() && !isRootVariable(argument.group(1))) {
			return new KeyExpression.Argument(argumentIndex(argument.group(1), key, method, names, attribute), key);
		}
		SpelExpression expression;
		try {
			expression = (SpelExpression) this.parser.parseExpression(key);
		}
		catch (ParseException ex) {
			throw LockOperationParser.invalid(method, attribute,
					attribute + " '" + key + "' is not a valid SpEL expression: " + ex.getSimpleMessage()
							+ " at position " + ex.getPosition());
		}
		for (SpelNode node : nodes(expression.getAST())) {
			if (node instanceof VariableReference) {
				String variable = node.toStringAST().substring(1);
				if (!isRootVariable(variable)) {
					argumentIndex(variable, key, method, names, attribute);
				}
			}
			else if (node instanceof BeanReference && this.beanFactory != null) {
				String bean = node.toStringAST().substring(1);
				if (!bean.startsWith("&") && !this.beanFactory.containsBean(bean)) {
					throw LockOperationParser.invalid(method, attribute,
							attribute + " '" + key + "' refers to bean '" + bean + "', but there is no such bean");
				}
			}
		}
		return new KeyExpression.Spel(expression, key);
	}

	private static boolean isRootVariable(String variable) {
		return variable.equals("root") || variable.equals("this");
	}

	private int argumentIndex(String variable, String key, Method method, String @Nullable [] names, String attribute) {
		// A suspend function's last parameter is the Continuation the compiler added.
		int count = KotlinDetector.isSuspendingFunction(method) ? method.getParameterCount() - 1
				: method.getParameterCount();
		Matcher position = POSITION.matcher(variable);
		if (position.matches()) {
			int index = Integer.parseInt(position.group(1));
			if (index >= count) {
				throw LockOperationParser.invalid(method, attribute, attribute + " '" + key + "' refers to #" + variable
						+ ", but the method has " + count + " parameter" + ((count != 1) ? "s" : ""));
			}
			return index;
		}
		if (names == null) {
			throw LockOperationParser
				.invalid(method, attribute, attribute + " '" + key + "' refers to parameter '" + variable
						+ "' by name, but the parameter names of this method are not in its class file, so every call "
						+ "would lock the same key. " + PARAMETER_NAMES_REMEDY);
		}
		int index = Arrays.asList(names).indexOf(variable);
		if (index < 0) {
			throw LockOperationParser.invalid(method, attribute, attribute + " '" + key + "' refers to #" + variable
					+ ", but the method has no such parameter; its parameters are " + Arrays.toString(names));
		}
		return index;
	}

	private static List<SpelNode> nodes(SpelNode root) {
		List<SpelNode> nodes = new ArrayList<>();
		nodes.add(root);
		for (int i = 0; i < nodes.size(); i++) {
			SpelNode node = nodes.get(i);
			for (int child = 0; child < node.getChildCount(); child++) {
				nodes.add(node.getChild(child));
			}
		}
		return nodes;
	}

}
