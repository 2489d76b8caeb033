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

package io.distlock.docs;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.distlock.annotation.DistributedLocked;

import org.springframework.core.annotation.AliasFor;

/**
 * The annotation page's composed annotation: the order lock, with its settings in one
 * place.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@DistributedLocked(ttl = "10s", waitTime = "5s")
public @interface OrderLock {

	@AliasFor(annotation = DistributedLocked.class, attribute = "key")
	String key() default "'order:' + #orderId";

}
