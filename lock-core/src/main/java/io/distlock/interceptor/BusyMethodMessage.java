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
import java.util.Arrays;
import java.util.stream.Collectors;

import io.distlock.LockAcquisitionException;
import io.distlock.annotation.DistributedLocked;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Says a busy lock the way a {@code @DistributedLocked} method's caller needs it: the
 * template's message names the lock by its name, this one also by the method, such as
 * {@code OrderService.pay(long)}, and says how to wait longer on the annotation instead
 * of on a {@code LockRequest}. The key, the wait time, the time waited and the holder are
 * the template's words, kept as they are.
 */
final class BusyMethodMessage {

	private BusyMethodMessage() {
	}

	/**
	 * Return the busy exception of a call of the operation's method, or the given one
	 * when it is not the template's busy exception (interrupted, a lost outer lock).
	 * @param operation the operation of the called method
	 * @param busy the template's exception
	 * @return the exception naming the method, with the same key, time waited and holder
	 */
	static LockAcquisitionException of(LockOperation operation, LockAcquisitionException busy) {
		String message = busy.getMessage();
		if (message == null || busy.getCause() != null) {
			return busy;
		}
		String name = operation.lockName();
		int at = nameAt(message, busy.getKey(), name);
		int remedy = (at < 0) ? -1 : message.lastIndexOf(". To wait ");
		if (remedy < 0) {
			return busy;
		}
		String signature = signature(operation.method());
		String label = name.equals(defaultName(operation.method())) ? signature : name + " (" + signature + ")";
		String named = message.substring(0, at) + label + message.substring(at + name.length(), remedy) + ". "
				+ remedy(operation, signature);
		return new LockAcquisitionException(busy.getKey(), busy.getWaited(), busy.getHolder(), named);
	}

	/**
	 * Return where the template's message names the lock, or -1 if it does not begin as
	 * the template's busy message does.
	 */
	private static int nameAt(String message, String key, String name) {
		String lockOf = "Lock '" + key + "' of ";
		if (message.startsWith(lockOf + name + " ")) {
			return lockOf.length();
		}
		if (message.startsWith("Could not take locks [")) {
			int at = message.indexOf("] of " + name + " ");
			return (at < 0) ? -1 : at + "] of ".length();
		}
		return -1;
	}

	private static String remedy(LockOperation operation, String signature) {
		DistributedLocked locked = AnnotatedElementUtils.findMergedAnnotation(operation.method(),
				DistributedLocked.class);
		String waitTime = (locked != null) ? locked.waitTime() : "";
		return (operation.waitTime().isZero() ? "To wait for the holder" : "To wait longer") + ", raise waitTime"
				+ (waitTime.isEmpty() ? "" : " (now '" + waitTime + "')") + " on @DistributedLocked of " + signature
				+ (waitTime.isEmpty() ? ", or distlock.default-wait-time, which it uses as it gives no waitTime" : "");
	}

	private static String defaultName(Method method) {
		return ClassUtils.getShortName(method.getDeclaringClass()) + "." + method.getName();
	}

	private static String signature(Method method) {
		return defaultName(method) + Arrays.stream(method.getParameterTypes())
			.map(ClassUtils::getShortName)
			.collect(Collectors.joining(", ", "(", ")"));
	}

}
