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

import java.io.IOException;
import java.io.Serializable;
import java.util.Map;
import java.util.function.Function;

/**
 * A public type for {@link PublicApiTests}.
 *
 * @param <T> the result type
 * @author The distlock maintainers
 */
@FunctionalInterface
public interface ApiFixture<T extends Serializable> {

	/**
	 * A constant.
	 */
	String NAME = "fixture\n";

	T apply(Map<String, ? super T> values, String... names) throws IOException;

	@Deprecated
	default int size() {
		return 0;
	}

	/**
	 * A record member type.
	 *
	 * @param length a component
	 */
	record Nested(Function<String, Integer> length) {

		private static void hidden() {
		}

	}

}

/**
 * Not public: left out.
 */
final class HiddenFixture {

	public void method() {
	}

}
