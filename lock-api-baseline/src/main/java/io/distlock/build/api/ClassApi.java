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
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import org.springframework.asm.AnnotationVisitor;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.FieldVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.RecordComponentVisitor;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;

/**
 * What one class file declares that can matter outside its package: the type's
 * declaration, and its public and protected fields, constructors, methods, enum constants
 * and record components, each rendered as one line of Java-like source. Synthetic and
 * bridge members are left out, so that the lines depend on the source only, not on the
 * compiler that produced the class.
 *
 * @author The distlock maintainers
 */
final class ClassApi extends ClassVisitor {

	/**
	 * The declaration annotations that are part of the API: what they say changes how a
	 * type or member may be used.
	 */
	private static final Set<String> API_ANNOTATIONS = Set.of("Ljava/lang/Deprecated;",
			"Ljava/lang/FunctionalInterface;", "Ljava/lang/annotation/Documented;", "Ljava/lang/annotation/Inherited;",
			"Ljava/lang/annotation/Repeatable;", "Ljava/lang/annotation/Retention;", "Ljava/lang/annotation/Target;",
			"Lorg/springframework/core/annotation/AliasFor;");

	String name = "";

	int access;

	private @Nullable String signature;

	private @Nullable String superName;

	private String[] interfaces = new String[0];

	/** The enclosing class of a member class, {@code null} for a top-level class. */
	@Nullable String outerName;

	/** Whether this is a local or anonymous class. */
	boolean local;

	private @Nullable String simpleName;

	private final Set<String> annotations = new TreeSet<>();

	private final Set<String> permittedSubclasses = new TreeSet<>();

	private final List<Member> members = new ArrayList<>();

	ClassApi() {
		super(SpringAsmInfo.ASM_VERSION);
	}

	@Override
	public void visit(int version, int access, String name, @Nullable String signature, @Nullable String superName,
			String @Nullable [] interfaces) {
		this.name = name;
		this.access = access;
		this.signature = signature;
		this.superName = superName;
		this.interfaces = (interfaces != null) ? interfaces : new String[0];
	}

	@Override
	public void visitInnerClass(String name, @Nullable String outerName, @Nullable String innerName, int access) {
		if (name.equals(this.name)) {
			// A member class's own modifiers (protected, private, static) are only here.
			this.access = access;
			this.outerName = outerName;
			this.local = (outerName == null);
			this.simpleName = innerName;
		}
	}

	@Override
	public @Nullable AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
		return apiAnnotation(descriptor, this.annotations);
	}

	@Override
	public void visitPermittedSubclass(String permittedSubclass) {
		this.permittedSubclasses.add(Type.getObjectType(permittedSubclass).getClassName());
	}

	@Override
	public @Nullable RecordComponentVisitor visitRecordComponent(String name, String descriptor,
			@Nullable String signature) {
		this.members.add(new Member(Member.RECORD_COMPONENT, "record component " + ((signature != null)
				? SignatureRenderer.typeSignature(signature) : SignatureRenderer.descriptor(descriptor)) + " " + name));
		return null;
	}

	@Override
	public @Nullable FieldVisitor visitField(int access, String name, String descriptor, @Nullable String signature,
			@Nullable Object value) {
		if (!isApi(access)) {
			return null;
		}
		if ((access & Opcodes.ACC_ENUM) != 0) {
			this.members.add(new Member(Member.ENUM_CONSTANT, "enum constant " + name));
			return null;
		}
		Member member = new Member(Member.FIELD,
				modifiers(access, false)
						+ ((signature != null) ? SignatureRenderer.typeSignature(signature)
								: SignatureRenderer.descriptor(descriptor))
						+ " " + name + ((value != null) ? " = " + AnnotationRenderer.constant(value, descriptor) : ""));
		this.members.add(member);
		return new FieldVisitor(SpringAsmInfo.ASM_VERSION) {

			@Override
			public @Nullable AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
				return apiAnnotation(descriptor, member.annotations);
			}

		};
	}

	@Override
	public @Nullable MethodVisitor visitMethod(int access, String name, String descriptor, @Nullable String signature,
			String @Nullable [] exceptions) {
		if (!isApi(access) || name.equals("<clinit>")) {
			return null;
		}
		boolean constructor = name.equals("<init>");
		List<String> parts = (signature != null) ? SignatureRenderer.methodSignature(signature)
				: descriptorParts(descriptor);
		List<String> parameters = new ArrayList<>();
		List<String> thrown = new ArrayList<>();
		for (int i = 2; i < parts.size(); i++) {
			if (parts.get(i).equals("^")) {
				thrown.add(parts.get(++i));
			}
			else {
				parameters.add(parts.get(i));
			}
		}
		if (thrown.isEmpty() && exceptions != null) {
			for (String exception : exceptions) {
				thrown.add(Type.getObjectType(exception).getClassName());
			}
		}
		if ((access & Opcodes.ACC_VARARGS) != 0 && !parameters.isEmpty()) {
			String last = parameters.remove(parameters.size() - 1);
			parameters.add(last.substring(0, last.length() - 2) + "...");
		}
		String typeParameters = parts.get(0).isEmpty() ? "" : parts.get(0) + " ";
		String declaration = constructor ? typeParameters + simpleName() : typeParameters + parts.get(1) + " " + name;
		Member member = new Member(constructor ? Member.CONSTRUCTOR : Member.METHOD,
				modifiers(access, !constructor) + declaration + "(" + String.join(", ", parameters) + ")"
						+ (thrown.isEmpty() ? "" : " throws " + String.join(", ", thrown)));
		this.members.add(member);
		return new MethodVisitor(SpringAsmInfo.ASM_VERSION) {

			@Override
			public @Nullable AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
				return apiAnnotation(descriptor, member.annotations);
			}

			@Override
			public AnnotationVisitor visitAnnotationDefault() {
				return AnnotationRenderer.defaultValue((value) -> member.suffix = " default " + value);
			}

		};
	}

	private static List<String> descriptorParts(String descriptor) {
		List<String> parts = new ArrayList<>();
		parts.add("");
		parts.add(Type.getReturnType(descriptor).getClassName());
		for (Type argument : Type.getArgumentTypes(descriptor)) {
			parts.add(argument.getClassName());
		}
		return parts;
	}

	private static @Nullable AnnotationVisitor apiAnnotation(String descriptor, Set<String> annotations) {
		return API_ANNOTATIONS.contains(descriptor) ? AnnotationRenderer.annotation(descriptor, annotations::add)
				: null;
	}

	/**
	 * Whether a member with the given modifiers can be used outside the package: public,
	 * or protected in a class that can be extended. Synthetic and bridge members never.
	 */
	private boolean isApi(int access) {
		if ((access & (Opcodes.ACC_SYNTHETIC | Opcodes.ACC_BRIDGE)) != 0) {
			return false;
		}
		return (access & Opcodes.ACC_PUBLIC) != 0 || ((access & Opcodes.ACC_PROTECTED) != 0 && !isFinal());
	}

	boolean isFinal() {
		return (this.access & Opcodes.ACC_FINAL) != 0;
	}

	private String modifiers(int access, boolean method) {
		StringBuilder modifiers = new StringBuilder(((access & Opcodes.ACC_PUBLIC) != 0) ? "public " : "protected ");
		if ((access & Opcodes.ACC_STATIC) != 0) {
			modifiers.append("static ");
		}
		if ((access & Opcodes.ACC_FINAL) != 0) {
			modifiers.append("final ");
		}
		if ((access & Opcodes.ACC_ABSTRACT) != 0) {
			modifiers.append("abstract ");
		}
		else if (method && isInterface() && (access & Opcodes.ACC_STATIC) == 0) {
			modifiers.append("default ");
		}
		if (!method && (access & Opcodes.ACC_VOLATILE) != 0) {
			modifiers.append("volatile ");
		}
		return modifiers.toString();
	}

	private boolean isInterface() {
		return (this.access & Opcodes.ACC_INTERFACE) != 0;
	}

	private String simpleName() {
		if (this.simpleName != null) {
			return this.simpleName;
		}
		String className = Type.getObjectType(this.name).getClassName();
		return className.substring(className.lastIndexOf('.') + 1);
	}

	/**
	 * The type's lines: its declaration first, then its members by kind and text.
	 * @return the lines, each prefixed with the type's name
	 */
	List<String> lines() {
		String typeName = Type.getObjectType(this.name).getClassName();
		List<String> lines = new ArrayList<>();
		lines.add(typeName + ": " + declaration());
		this.members.sort(null);
		for (Member member : this.members) {
			lines.add(typeName + ": " + member);
		}
		return lines;
	}

	private String declaration() {
		StringBuilder declaration = new StringBuilder();
		for (String annotation : this.annotations) {
			declaration.append(annotation).append(' ');
		}
		declaration.append(((this.access & Opcodes.ACC_PUBLIC) != 0) ? "public " : "protected ");
		List<String> parts = (this.signature != null) ? SignatureRenderer.classSignature(this.signature)
				: descriptorParts();
		String superclass = parts.get(1);
		List<String> interfaces = parts.subList(2, parts.size());
		String kind;
		if ((this.access & Opcodes.ACC_ANNOTATION) != 0) {
			kind = "@interface";
			interfaces = List.of();
		}
		else if (isInterface()) {
			kind = "interface";
		}
		else if ((this.access & Opcodes.ACC_ENUM) != 0 && "java.lang.Enum".equals(erasure(superclass))) {
			kind = "enum";
		}
		else if ("java.lang.Record".equals(superclass)) {
			kind = "record";
		}
		else {
			kind = "class";
			if (this.outerName != null && (this.access & Opcodes.ACC_STATIC) != 0) {
				declaration.append("static ");
			}
			if ((this.access & Opcodes.ACC_ABSTRACT) != 0) {
				declaration.append("abstract ");
			}
			if (isFinal()) {
				declaration.append("final ");
			}
		}
		if (!this.permittedSubclasses.isEmpty()) {
			declaration.append("sealed ");
		}
		declaration.append(kind).append(' ').append(simpleName()).append(parts.get(0));
		if (kind.equals("class") && !superclass.equals("java.lang.Object")) {
			declaration.append(" extends ").append(superclass);
		}
		if (!interfaces.isEmpty()) {
			declaration.append(kind.equals("interface") ? " extends " : " implements ")
				.append(String.join(", ", interfaces));
		}
		if (!this.permittedSubclasses.isEmpty()) {
			declaration.append(" permits ").append(String.join(", ", this.permittedSubclasses));
		}
		return declaration.toString();
	}

	private List<String> descriptorParts() {
		List<String> parts = new ArrayList<>();
		parts.add("");
		parts.add((this.superName != null) ? Type.getObjectType(this.superName).getClassName() : "java.lang.Object");
		for (String type : this.interfaces) {
			parts.add(Type.getObjectType(type).getClassName());
		}
		return parts;
	}

	private static String erasure(String type) {
		int generic = type.indexOf('<');
		return (generic != -1) ? type.substring(0, generic) : type;
	}

	/**
	 * A member's line, ordered by kind (enum constants, record components, fields,
	 * constructors, methods), then by text.
	 */
	private static final class Member implements Comparable<Member> {

		static final int ENUM_CONSTANT = 0;

		static final int RECORD_COMPONENT = 1;

		static final int FIELD = 2;

		static final int CONSTRUCTOR = 3;

		static final int METHOD = 4;

		final int kind;

		final String text;

		final Set<String> annotations = new TreeSet<>();

		String suffix = "";

		Member(int kind, String text) {
			this.kind = kind;
			this.text = text;
		}

		@Override
		public int compareTo(Member other) {
			int byKind = Integer.compare(this.kind, other.kind);
			return (byKind != 0) ? byKind : toString().compareTo(other.toString());
		}

		@Override
		public String toString() {
			StringBuilder line = new StringBuilder();
			for (String annotation : this.annotations) {
				line.append(annotation).append(' ');
			}
			return line.append(this.text).append(this.suffix).toString();
		}

	}

}
