-- Tables, metatables, sorting, closures, coroutines, errors, goto, integer/float arithmetic.
local t = {}
for i = 1, 1000 do t[i] = (i * 7919) % 1009 end
table.sort(t)
print(t[1], t[500], t[1000], #t)
table.sort(t, function(a, b) return a > b end)
print(t[1], t[1000])
local words = {"pear", "apple", "fig", "banana", "cherry"}
table.sort(words) print(table.concat(words, " "))
print(table.unpack({1, 2, 3}), select("#", table.unpack({1, nil, 3}, 1, 3)), table.pack(1, 2).n)
table.insert(words, 1, "kiwi") table.remove(words, 3) print(table.concat(words, ","), table.move({1, 2, 3}, 1, 3, 2)[3])
local Vec = {}
Vec.__index = Vec
Vec.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, Vec) end
Vec.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y end
Vec.__lt = function(a, b) return a.x < b.x end
Vec.__len = function() return 2 end
local a, b = setmetatable({x = 1, y = 2}, Vec), setmetatable({x = 3, y = 4}, Vec)
print(tostring(a + b), a == b, a < b, #a, rawequal(a, a), rawlen({1, 2}))
local function counter() local n = 0 return function() n = n + 1 return n end end
local c = counter() c() c() print(c())
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i * i) end return "done" end)
print(gen(), gen(), gen(), gen())
local co = coroutine.create(function(x) local y = coroutine.yield(x + 1) error("inside " .. y) end)
print(coroutine.resume(co, 1)) print(coroutine.resume(co, "co")) print(coroutine.status(co))
print(pcall(function() local x = nil; return x.field end))
local ok, e = pcall(error, {code = 7}) print(ok, type(e), e.code) print(select(2, pcall(error, "msg", 0)), select(2, xpcall(function() error("deep") end, function(m) return "handled: " .. m end)))
for i = 1, 3 do for j = 1, 3 do if j == 2 then goto next end io.write(i, j, " ") end ::next:: end print()
print(math.maxinteger + 1 == math.mininteger, 7 // 0.0, -7 // 0.0, 0/0 ~= 0/0, math.fmod(-7, 3), -7 % 3, 3 % -2.5)
print(math.floor(3.7), math.ceil(-3.2), math.abs(-4), math.max(3, 9, 1), math.min(2.5, -1), math.ult(1, -1))
print(string.format("%.14g %.14g %.14g %.14g", math.sin(0.5), math.cos(2), math.exp(3), math.log(7, 2)))
print(string.format("%.14g %.14g %.14g", math.sqrt(2), math.atan(1, 2), 10 ^ -3))
local big = {} for i = 1, 200000 do big[i] = i end local s = 0 for _, v in ipairs(big) do s = s + v end print(s)
local keys = 0 for k in pairs({a = 1, b = 2, [3] = 3}) do keys = keys + 1 end print(keys, next({}, nil))
collectgarbage() print(collectgarbage("count") > 0, type(collectgarbage("step")))
