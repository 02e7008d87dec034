// The source documents by the number the catalogue cites them with ("000", "002"): the title a
// reader knows them by (as each document's first line gives it), and the file the project keeps.
export const SEED_TITLES: Record<string, { title: string; file: string }> = {
  '000': { title: '基础篇 · Kubernetes 架构（《容器相关》）', file: '000_247f701c7d691d2d.txt' },
  '002': { title: 'Kubernetes 的总架构图和各组件的详细总结', file: '002_8be7f4509d303796.txt' },
};
