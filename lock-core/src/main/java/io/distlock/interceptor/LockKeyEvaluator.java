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
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.convert.ConversionService;
import org.springframework.expression.EvaluationException;
import org.springframework.util.Assert;
import org.springframework.util.ObjectUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Evaluates a method's {@link KeyExpression} for one call and turns the value into the
 * key String. Only the value is computed per call; the expression was parsed once.
 */
final class LockKeyEvaluator {

	private final ParameterNameDiscoverer parameterNames;

	private final @Nullable BeanFactoryResolver beanResolver;

	private final ConversionService conversionService;

	private final NullKeyHint nullKeys;

	LockKeyEvaluator(ParameterNameDiscoverer parameterNames, @Nullable BeanFactory beanFactory,
			ConversionService conversionService) {
		this.parameterNames = parameterNames;
		this.beanResolver = (beanFactory != null) ? new BeanFactoryResolver(beanFactory) : null;
		this.conversionService = conversionService;
		this.nullKeys = new NullKeyHint(parameterNames);
	}

	String evaluate(LockOperation operation, @Nullable Object[] args, Object target, Class<?> targetClass) {
		KeyExpression key = operation.key();
		if (key instanceof KeyExpression.Literal literal) {
			return literal.value();
		}
		Object value = value(key, operation, args, target, targetClass);
		if (value == null) {
			throw invalidKey(operation, key, this.nullKeys.problem(operation, key, args), null);
		}
		return toKey(value, operation, key);
	}

	/**
	 * Evaluate the {@code keys} of a multi-key method for one call: every element, with
	 * each element of a collection or array value, as lock keys without duplicates.
	 * @return the lock keys (the operation's name put before each), in the order found
	 */
	List<String> evaluateAll(LockOperation operation, @Nullable Object[] args, Object target, Class<?> targetClass) {
		Set<String> keys = new LinkedHashSet<>();
		for (KeyExpression key : operation.keys()) {
			Object value = (key instanceof KeyExpression.Literal literal) ? literal.value()
					: value(key, operation, args, target, targetClass);
			if (value instanceof Collection<?> collection) {
				for (Object element : collection) {
					keys.add(operation.lockKey(toKey(element, operation, key)));
				}
			}
			else if (value != null && value.getClass().isArray()) {
				for (Object element : ObjectUtils.toObjectArray(value)) {
					keys.add(operation.lockKey(toKey(element, operation, key)));
				}
			}
			else if (value == null) {
				throw invalidKey(operation, key, this.nullKeys.problem(operation, key, args), null);
			}
			else {
				keys.add(operation.lockKey(toKey(value, operation, key)));
			}
		}
		if (keys.isEmpty()) {
			throw new IllegalArgumentException("Lock keys "
					+ operation.keys().stream().map(KeyExpression::source).toList() + " of '" + operation.method()
					+ "' gave no key at all (only empty collections or arrays); the " + "method was not run");
		}
		return List.copyOf(keys);
	}

	private @Nullable Object value(KeyExpression key, LockOperation operation, @Nullable Object[] args, Object target,
			Class<?> targetClass) {
		if (key instanceof KeyExpression.Literal literal) {
			return literal.value();
		}
		if (key instanceof KeyExpression.Argument argument) {
			return args[argument.index()];
		}
		return evaluate((KeyExpression.Spel) key, operation, args, target, targetClass);
	}

	private @Nullable Object evaluate(KeyExpression.Spel spel, LockOperation operation, @Nullable Object[] args,
			Object target, Class<?> targetClass) {
		LockExpressionRootObject root = new LockExpressionRootObject(operation.method(), args, target, targetClass);
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, operation.method(), args,
				this.parameterNames);
		if (this.beanResolver != null) {
			context.setBeanResolver(this.beanResolver);
		}
		try {
			return spel.expression().getValue(context);
		}
		catch (EvaluationException ex) {
			throw invalidKey(operation, spel, "could not be evaluated: " + ex.getMessage(), ex);
		}
		catch (RuntimeException ex) {
			// SpEL passes on what a method called by the expression throws, unwrapped.
			throw invalidKey(operation, spel, "could not be evaluated: " + ex, ex);
		}
	}

	private String toKey(@Nullable Object value, LockOperation operation, KeyExpression expression) {
		if (value == null) {
			throw invalidKey(operation, expression, NullKeyHint.elementProblem(expression), null);
		}
		if (value instanceof Collection || value instanceof Map || value.getClass().isArray()) {
			throw invalidKey(operation, expression, "evaluated to a " + value.getClass().getName()
					+ "; a lock key must be a single value (use keys to lock several)", null);
		}
		String key;
		try {
			key = asString(value, operation, expression);
		}
		catch (RuntimeException ex) {
			throw invalidKey(operation, expression,
					"evaluated to a " + value.getClass().getName() + " that could not be turned into a String: " + ex,
					ex);
		}
		if (key == null || key.isBlank()) {
			throw invalidKey(operation, expression, "evaluated to a blank String", null);
		}
		return key;
	}

	private @Nullable String asString(Object value, LockOperation operation, KeyExpression expression) {
		if (value instanceof String string) {
			return string;
		}
		if (value instanceof Class<?> type) {
			return type.getName();
		}
		if (this.conversionService.canConvert(value.getClass(), String.class)) {
			return this.conversionService.convert(value, String.class);
		}
		// An Object.toString() names the instance, not the value: every call would lock
		// a different key, so there would be no mutual exclusion at all.
		Method toString = ReflectionUtils.findMethod(value.getClass(), "toString");
		Assert.state(toString != null, "Every class has a toString()");
		if (toString.getDeclaringClass() == Object.class) {
			throw invalidKey(operation, expression,
					"evaluated to a " + value.getClass().getName()
							+ ", which has no String conversion and no toString() of its own; "
							+ "refer to one of its properties instead",
					null);
		}
		return value.toString();
	}

	static IllegalArgumentException invalidKey(LockOperation operation, String problem, @Nullable Throwable cause) {
		return invalidKey(operation, operation.key(), problem, cause);
	}

	static IllegalArgumentException invalidKey(LockOperation operation, KeyExpression key, String problem,
			@Nullable Throwable cause) {
		return new IllegalArgumentException("Lock key '" + key.source() + "' of '" + operation.method() + "' " + problem
				+ "; the method was not run", cause);
	}

}
