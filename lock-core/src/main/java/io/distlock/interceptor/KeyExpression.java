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

import org.springframework.expression.Expression;

/**
 * A parsed lock key: decided once, when the method is first seen, whether it is a
 * literal, one method argument, or a SpEL expression to evaluate on each call.
 */
sealed interface KeyExpression {

	/**
	 * Return the key as written in the annotation, for messages.
	 * @return the key's source text
	 */
	String source();

	/**
	 * A key without SpEL, used as it is.
	 *
	 * @param value the key
	 * @param source the key's source text
	 */
	record Literal(String value, String source) implements KeyExpression {

	}

	/**
	 * A key that is one method argument ({@code #orderId}, {@code #p0}), read without
	 * evaluating SpEL.
	 *
	 * @param index the argument's position
	 * @param source the key's source text
	 */
	record Argument(int index, String source) implements KeyExpression {

	}

	/**
	 * A SpEL expression evaluated against the call's arguments.
	 *
	 * @param expression the parsed expression
	 * @param source the key's source text
	 */
	record Spel(Expression expression, String source) implements KeyExpression {

	}

}
