//! The args file of `kc run` (`compiler/RUN.md`): the kernel's parameters, the JSON that
//! gives each one (buffers, scalars, grid and block), and the checks that turn a bad file into
//! a diagnostic naming the parameter; the `--grid` / `--block` flags.

use crate::diag::SourceFile;
use crate::interp::{ArgValue, Buffer, MAX_WORKGROUP_SIZE};
use crate::pipeline::{Failure, Input};
use crate::{ast, parse};
use kc_dialect::{AddrSpace, Ir, Op, Scalar, Type};
use serde_json::Value as Json;

/// A scalar type as the args file sees it: the IR's scalar and, from `.k` source, its
/// signedness (`None` for IR input, where integers are signless).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Elem {
    pub(super) scalar: Scalar,
    pub(super) signed: Option<bool>,
}

#[derive(Clone, Debug)]
pub(super) enum ParamKind {
    Scalar(Elem),
    /// `ptr<global, T>`.
    Buffer(Elem),
    /// Anything else (`ptr<shared, T>`): cannot be bound.
    Other(Type),
}

#[derive(Clone, Debug)]
pub(super) struct Param {
    pub(super) name: String,
    pub(super) kind: ParamKind,
}

/// The kernel's parameters, with signedness from the source when the input is `.k`.
pub(super) fn params(ir: &Ir, func: Op, input: &Input) -> Vec<Param> {
    let src_types = (!input.is_ir)
        .then(|| {
            let file = SourceFile::new(input.name.clone(), input.text.clone());
            let module = parse::parse(&file).ok()?;
            let k = module
                .kernels
                .into_iter()
                .find(|k| k.name.name == ir.func_name(func))?;
            Some(k.params.into_iter().map(|p| p.ty.ty).collect::<Vec<_>>())
        })
        .flatten();
    let entry = ir
        .entry_block(ir.ops[func].regions[0])
        .expect("a kernel region has a block");
    ir.blocks[entry]
        .args
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let signed = src_types
                .as_ref()
                .and_then(|t| t.get(i))
                .and_then(|t| match t {
                    ast::Type::Scalar(s) | ast::Type::Ptr(_, s) => Some(s.is_signed()),
                    ast::Type::Token => None,
                });
            let kind = match ir.value_type(v) {
                Type::Scalar(s) => ParamKind::Scalar(Elem { scalar: s, signed }),
                Type::Ptr(AddrSpace::Global, s) => ParamKind::Buffer(Elem { scalar: s, signed }),
                t => ParamKind::Other(t),
            };
            Param {
                name: ir.value_name(v).unwrap_or("").to_string(),
                kind,
            }
        })
        .collect()
}

// ---- the args file ----

/// A buffer as the args file gave it: its type name (for the output) and contents.
pub(super) struct BufferSpec {
    pub(super) param: String,
    pub(super) ty: &'static str,
    pub(super) buffer: Buffer,
}

#[derive(Default)]
pub(super) struct ArgsSpec {
    pub(super) grid: Option<[u32; 3]>,
    pub(super) block: Option<[u32; 3]>,
    pub(super) args: Vec<ArgValue>,
    /// One per pointer parameter, in parameter order; `ArgValue::Buffer(i)` is `buffers[i]`.
    pub(super) buffers: Vec<BufferSpec>,
}

/// Largest buffer the args file may ask for, in elements.
pub(super) const MAX_BUFFER_LEN: u64 = 1 << 26;

pub(super) const BUFFER_TYPES: &[(&str, Scalar, bool)] = &[
    ("i32", Scalar::I32, true),
    ("u32", Scalar::I32, false),
    ("i64", Scalar::I64, true),
    ("u64", Scalar::I64, false),
    ("f32", Scalar::F32, true),
];

pub(super) fn parse_args(
    file: &str,
    text: &str,
    kernel: &str,
    params: &[Param],
) -> Result<ArgsSpec, Failure> {
    let err = |msg: String| Failure::Diagnostics(format!("{file}: error: {msg}\n"));
    let json: Json = serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
        Failure::Diagnostics(format!(
            "{file}:{}:{}: error: malformed JSON: {msg}\n",
            e.line(),
            e.column()
        ))
    })?;
    let Json::Object(map) = json else {
        return Err(err(
            "the args file must be a JSON object (parameter name -> value)".into(),
        ));
    };
    let mut spec = ArgsSpec::default();
    for key in ["grid", "block"] {
        if params.iter().any(|p| p.name == key) {
            return Err(err(format!(
                "kernel `{kernel}` has a parameter named `{key}`, which the args file cannot set (`\"{key}\"` is the launch {key}); rename the parameter"
            )));
        }
        if let Some(v) = map.get(key) {
            let dims = dims_of(v).map_err(|m| err(format!("`\"{key}\"`: {m}")))?;
            if key == "block" {
                check_block(dims).map_err(|m| err(format!("`\"block\"`: {m}")))?;
            }
            if key == "grid" {
                spec.grid = Some(dims);
            } else {
                spec.block = Some(dims);
            }
        }
    }
    let takes = || {
        if params.is_empty() {
            "no parameters".to_string()
        } else {
            params
                .iter()
                .map(|p| format!("`{}`", p.name))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    for key in map.keys() {
        if key != "grid" && key != "block" && !params.iter().any(|p| &p.name == key) {
            return Err(err(format!(
                "unknown parameter `{key}`: kernel `{kernel}` takes {}",
                takes()
            )));
        }
    }
    for p in params {
        let Some(v) = map.get(&p.name) else {
            return Err(err(format!(
                "missing parameter `{}` of kernel `{kernel}`",
                p.name
            )));
        };
        let what = |m: String| err(format!("parameter `{}`: {m}", p.name));
        match p.kind {
            ParamKind::Scalar(e) => spec
                .args
                .push(ArgValue::Scalar(scalar_value(v, e).map_err(what)?)),
            ParamKind::Buffer(e) => {
                let (ty, buffer) = buffer_value(v, e).map_err(what)?;
                spec.args.push(ArgValue::Buffer(spec.buffers.len()));
                spec.buffers.push(BufferSpec {
                    param: p.name.clone(),
                    ty,
                    buffer,
                });
            }
            ParamKind::Other(t) => {
                return Err(what(format!("a parameter of type {t} cannot be bound")))
            }
        }
    }
    Ok(spec)
}

pub(super) fn dims_of(v: &Json) -> Result<[u32; 3], String> {
    let one = |v: &Json| -> Result<u32, String> {
        v.as_u64()
            .filter(|&n| (1..=u32::MAX as u64).contains(&n))
            .map(|n| n as u32)
            .ok_or_else(|| format!("expected a positive 32-bit integer, found {v}"))
    };
    match v {
        Json::Array(a) if (1..=3).contains(&a.len()) => {
            let mut d = [1; 3];
            for (i, x) in a.iter().enumerate() {
                d[i] = one(x)?;
            }
            Ok(d)
        }
        Json::Array(_) => Err("expected 1 to 3 dimensions".into()),
        _ => Ok([one(v)?, 1, 1]),
    }
}

pub(super) fn check_block(d: [u32; 3]) -> Result<(), String> {
    let n = d.iter().map(|&x| x as u64).product::<u64>();
    if n > MAX_WORKGROUP_SIZE as u64 {
        return Err(format!(
            "a workgroup of {n} work-items is larger than the maximum {MAX_WORKGROUP_SIZE}"
        ));
    }
    Ok(())
}

pub(super) fn type_name(e: Elem) -> &'static str {
    match (e.scalar, e.signed) {
        (Scalar::I1, _) => "bool",
        (Scalar::I32, Some(false)) => "u32",
        (Scalar::I32, _) => "i32",
        (Scalar::I64, Some(false)) => "u64",
        (Scalar::I64, _) => "i64",
        (Scalar::F32, _) => "f32",
    }
}

/// The bit pattern of a scalar parameter's value.
pub(super) fn scalar_value(v: &Json, e: Elem) -> Result<u64, String> {
    let ty = type_name(e);
    match e.scalar {
        Scalar::I1 => v
            .as_bool()
            .map(u64::from)
            .ok_or_else(|| format!("expected `true` or `false` for type bool, found {v}")),
        Scalar::F32 => f32_value(v),
        Scalar::I32 | Scalar::I64 => int_value(v, e, ty),
    }
}

/// An integer of `e`'s width: signed, unsigned, or (signless IR) either; `ty` names the
/// type in messages.
pub(super) fn int_value(v: &Json, e: Elem, ty: &str) -> Result<u64, String> {
    let x = match v {
        Json::Number(n) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
        _ => None,
    };
    let Some(x) = x else {
        return Err(format!("expected an integer of type {ty}, found {v}"));
    };
    let bits = e.scalar.bits();
    let (smin, smax) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
    let umax = (1i128 << bits) - 1;
    let ok = match e.signed {
        Some(true) => (smin..=smax).contains(&x),
        Some(false) => (0..=umax).contains(&x),
        None => (smin..=umax).contains(&x),
    };
    if !ok {
        return Err(format!("value {x} is out of range for type {ty}"));
    }
    Ok((x as u64)
        & if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        })
}

pub(super) fn f32_value(v: &Json) -> Result<u64, String> {
    let x = match v {
        Json::String(s) if s == "nan" => f32::NAN,
        Json::String(s) if s == "inf" => f32::INFINITY,
        Json::String(s) if s == "-inf" => f32::NEG_INFINITY,
        Json::Number(n) => {
            let d = n.as_f64().unwrap_or(f64::NAN);
            let x = d as f32;
            if x.is_infinite() {
                return Err(format!("value {n} is out of range for type f32"));
            }
            x
        }
        _ => {
            return Err(format!(
                "expected a number (or \"nan\", \"inf\", \"-inf\") for type f32, found {v}"
            ))
        }
    };
    Ok(x.to_bits() as u64)
}

/// A buffer for a `ptr<global, T>` parameter whose pointee is `e`.
pub(super) fn buffer_value(v: &Json, e: Elem) -> Result<(&'static str, Buffer), String> {
    let want = type_name(e);
    let Json::Object(o) = v else {
        return Err(format!(
            "expected a buffer {{\"type\": \"{want}\", \"data\": [...]}} or {{\"type\": \"{want}\", \"len\": N}}, found {v}"
        ));
    };
    if let Some(k) = o
        .keys()
        .find(|k| !matches!(k.as_str(), "type" | "data" | "len"))
    {
        return Err(format!(
            "unknown buffer field `{k}` (a buffer has \"type\", \"data\" and \"len\")"
        ));
    }
    let ty = match o.get("type") {
        Some(Json::String(t)) => t.as_str(),
        Some(t) => return Err(format!("the buffer type must be a string, found {t}")),
        None => return Err(format!("the buffer needs a \"type\" (\"{want}\")")),
    };
    let Some(&(name, scalar, signed)) = BUFFER_TYPES.iter().find(|(n, ..)| *n == ty) else {
        return Err(format!(
            "unknown buffer type \"{ty}\" (expected i32, u32, i64, u64 or f32)"
        ));
    };
    if scalar != e.scalar {
        let accepted = match e.scalar {
            Scalar::I32 => "\"i32\" or \"u32\"",
            Scalar::I64 => "\"i64\" or \"u64\"",
            _ => "\"f32\"",
        };
        return Err(format!(
            "a buffer of \"{ty}\" for a pointer to {want} (expected {accepted})"
        ));
    }
    let elem = Elem {
        scalar,
        signed: Some(signed),
    };
    let mut data = match o.get("data") {
        None => Vec::new(),
        Some(Json::Array(items)) => {
            if items.len() as u64 > MAX_BUFFER_LEN {
                return Err(format!("more than {MAX_BUFFER_LEN} elements"));
            }
            let mut data = Vec::with_capacity(items.len());
            for (i, x) in items.iter().enumerate() {
                let bits = match scalar {
                    Scalar::F32 => f32_value(x),
                    _ => int_value(x, elem, ty),
                }
                .map_err(|m| format!("element {i}: {m}"))?;
                data.push(bits);
            }
            data
        }
        Some(d) => return Err(format!("\"data\" must be an array, found {d}")),
    };
    match o.get("len") {
        None if o.contains_key("data") => {}
        None => return Err("the buffer needs \"data\" or \"len\"".into()),
        Some(l) => {
            let Some(n) = l.as_u64().filter(|&n| n <= MAX_BUFFER_LEN) else {
                return Err(format!(
                    "\"len\" must be an integer from 0 to {MAX_BUFFER_LEN}, found {l}"
                ));
            };
            if (n as usize) < data.len() {
                return Err(format!(
                    "\"len\" is {n} but \"data\" has {} elements",
                    data.len()
                ));
            }
            data.resize(n as usize, 0);
        }
    }
    Ok((name, Buffer { elem: scalar, data }))
}

// ---- flags ----

pub(super) fn parse_dims(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err("expected at most 3 dimensions X[,Y,Z]".into());
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("`{p}` is not a positive 32-bit integer"))?;
    }
    Ok(d)
}

pub(super) fn parse_grid(s: &str) -> Result<[u32; 3], String> {
    parse_dims(s)
}

pub(super) fn parse_block(s: &str) -> Result<[u32; 3], String> {
    let d = parse_dims(s)?;
    check_block(d)?;
    Ok(d)
}
