import { main } from './src/main/cli/index'
const args = process.argv.slice(2)
main(args).then((code) => process.exit(code))
